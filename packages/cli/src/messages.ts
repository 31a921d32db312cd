/** Every line the CLI prints, in one place. */
export const messages = Object.freeze({
  created: (name: string, path: string) => `✓ Created ${name}  ${path}`,
  overwritten: (name: string, path: string) => `✓ Overwrote ${name}  ${path}`,
  skipped: (name: string, path: string) => `• Skipped ${name}  ${path} (exists; --force overwrites)`,
  wouldCreate: (name: string, path: string) => `+ Would create ${name}  ${path}`,
  wouldOverwrite: (name: string, path: string) => `~ Would overwrite ${name}  ${path}`,
  dryRun: () => 'Dry run: nothing was written.',
  noResources: (dir: string) => `No resources found in ${dir}. Add a class extending Resource there, then run this again.`,
  unknownResource: (name: string, known: readonly string[]) => `No resource named "${name}". Known resources: ${known.join(', ') || 'none'}.`,
  missingBase: (path: string, version: string) =>
    `Note: ${path} does not exist yet; run \`panel-api generate${version === 'v1' ? '' : ` --version ${version}`}\` to create the BaseResourcesController the controllers extend.`,
  invalidVersion: (version: string) => `--version must be a path segment such as v1 or v2, instead got "${version}".`,
  unreadable: (file: string, line: number, reason: string) => `${file}:${line}: ${reason}`,
  unreadableResourceName: () => 'static resourceName must be a string literal, so that panel-api can read it without running the file.',
  sameController: (controllerName: string, first: string, second: string) =>
    `${first} and ${second} both give ${controllerName}. Fix: rename one of the resources, or set static resourceName on one.`,
});
