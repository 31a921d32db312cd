/** Every line the CLI prints, in one place. */
export const messages = Object.freeze({
  created: (name: string, path: string) => `✓ Created ${name}  ${path}`,
  overwritten: (name: string, path: string) => `✓ Overwrote ${name}  ${path}`,
  skipped: (name: string, path: string) => `• Skipped ${name}  ${path} (exists; --force overwrites)`,
  wouldCreate: (name: string, path: string) => `+ Would create ${name}  ${path}`,
  wouldOverwrite: (name: string, path: string) => `~ Would overwrite ${name}  ${path}`,
  noResources: (dir: string) => `No resources found in ${dir}. Add a class extending Resource there, then run this again.`,
  unknownResource: (name: string, known: readonly string[]) => `No resource named "${name}". Known resources: ${known.join(', ') || 'none'}.`,
  missingBase: (path: string) => `Note: ${path} does not exist yet; run \`panel-api generate\` to create the BaseResourcesController the controllers extend.`,
  invalidVersion: (version: string) => `--version must be a path segment such as v1 or v2, instead got "${version}".`,
  unreadable: (file: string, line: number, reason: string) => `${file}:${line}: ${reason}`,
});
