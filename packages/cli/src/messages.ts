import { didYouMean, urlWithoutSecrets } from '@panel/core';

/** A lower-case identifier for a schema to be renamed to (`Sales` → `sales`, `app-data` → `app_data`). */
const openableSchema = (schema: string) => schema.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^(?=[0-9])/, '_') || '_';

/** Every line the CLI prints, in one place. */
export const messages = Object.freeze({
  created: (name: string, path: string) => `✓ Created ${name}  ${path}`,
  overwritten: (name: string, path: string) => `✓ Overwrote ${name}  ${path}`,
  skipped: (name: string, path: string) => `• Skipped ${name}  ${path} (exists; --force overwrites)`,
  /** The base controller holds the app's authentication: its skip line never suggests overwriting it. */
  skippedBase: (path: string) => `• Skipped BaseResourcesController  ${path} (exists; keeps your authentication: \`panel-api controllers --force\` regenerates the others)`,
  wouldCreate: (name: string, path: string) => `+ Would create ${name}  ${path}`,
  wouldOverwrite: (name: string, path: string) => `~ Would overwrite ${name}  ${path}`,
  dryRun: () => 'Dry run: nothing was written.',
  noResources: (dir: string) => `No resources found in ${dir}. Add a class extending Resource there, then run this again.`,
  noResourcesFolder: (appRoot: string, resourcesDir: string, found: { root: string; cd: string } | undefined) =>
    `No ${resourcesDir} folder in ${appRoot}: panel-api looks for ${resourcesDir} under the app root (the current directory, or the folder --root names). ` +
    `Fix: ${found ? `cd ${found.cd} (the app root ${found.root} holds it), or pass --root ${found.root}` : `cd to the folder that holds ${resourcesDir}, or pass --root <app root>`}.`,
  unknownResource: (name: string, known: readonly string[], suggestion?: string) =>
    `No resource named "${name}".${suggestion ? ` Did you mean "${suggestion}"?` : ''} Known resources: ${known.join(', ') || 'none'}.`,
  missingBase: (path: string, version: string) =>
    `Note: ${path} does not exist yet; run \`panel-api generate${version === 'v1' ? '' : ` --version ${version}`}\` to create the BaseResourcesController the controllers extend.`,
  invalidVersion: (version: string) => `--version must be a path segment such as v1 or v2, instead got "${version}".`,
  bothLanguages: () => '--js and --ts cannot be used together: pick the language of the new controllers.',
  unreadable: (file: string, line: number, reason: string) => `${file}:${line}: ${reason}`,
  unreadableResourceName: () => 'static resourceName must be a string literal, so that panel-api can read it without running the file.',
  syntaxError: (text: string) => `cannot parse this file: ${text}`,
  unknownHeritage: (className: string, reason: string) =>
    `cannot tell whether ${className} is a resource: ${reason}. Fix: extend Resource from @panel/core, or a resource class imported with a relative path.`,
  resourceAsValue: (name: string) =>
    `cannot tell whether ${name} is a resource: it is made by an expression, not declared as a class. Fix: declare it as export class ${name === 'the default export' ? 'BookResource' : name} extends Resource { … }.`,
  anonymousResource: () => 'an anonymous resource class has no name to derive the resource name from. Fix: name the class (export default class BookResource extends Resource), or set static resourceName.',
  sameController: (controllerName: string, first: string, second: string) =>
    `${first} and ${second} both give ${controllerName}. Fix: rename one of the resources, or set static resourceName on one.`,
  baseControllerName: (at: string, name: string, basePath: string) =>
    `${at}: the resource ${name} would get the base controller's file ${basePath} (BaseResourcesController). Fix: set static resourceName to another name (static resourceName = '${name}Record'), or rename the class.`,

  missingController: (controllerName: string, path: string, resourceName: string, resourceAt: string) =>
    `✗ Missing ${controllerName}  ${path} (resource ${resourceName}, ${resourceAt})`,
  missingBaseController: (path: string) => `✗ Missing BaseResourcesController  ${path}`,
  orphanedController: (className: string, at: string, resourceName: string, resourcesDir: string) =>
    `✗ Orphaned ${className}  ${at} serves the resource "${resourceName}", which ${resourcesDir} no longer defines`,
  duplicateController: (version: string, resourceName: string, first: string, second: string) =>
    `✗ Two controllers in ${version} serve the resource "${resourceName}": ${first} and ${second}`,
  checkFailed: (count: number, fixes: readonly string[]) => `${count} problem${count === 1 ? '' : 's'}. Fix: ${fixes.join('; ')}.`,
  fixMissing: (command: string) => `run \`${command}\` to create the missing files`,
  fixOrphaned: () => 'delete each orphaned controller, or restore its resource',
  fixDuplicate: () => 'delete one of the two controllers',
  checkPassed: (resources: number, controllers: number, versions: readonly string[]) =>
    `✓ Up to date: ${resources} resource${resources === 1 ? '' : 's'}, ${controllers} controller${controllers === 1 ? '' : 's'} in ${versions.join(', ')}.`,

  noRoutes: (dir: string) => `No routes: ${dir} holds no controllers, so the API answers 404 everywhere. Run \`panel-api generate\` to create them.`,
  routesHeader: () => ['Method', 'Path', 'Controller#action', 'File'] as const,
  noSearchFields: () => 'none (the resource declares no search fields: q is refused)',
  bootFailed: (message: string) => `Cannot list the routes: ${message}`,
  openApiBootFailed: (message: string) => `Cannot build the OpenAPI document: ${message}`,
  openApiNoVersion: (version: string, dir: string) => `No routes in ${version}: ${dir}/${version} holds no controllers. Run \`panel-api generate --version ${version}\`, or pass the --version the app serves.`,
  openApiWritten: (file: string) => `Wrote ${file}.`,
  openApiUpToDate: (file: string) => `${file} is up to date.`,
  openApiStale: (file: string, version: string) => `${file} is stale: it is not the document the app's resources and controllers give now. Fix: run \`panel-api openapi --version ${version}\` and commit the file.`,

  brokenImport: (specifier: string, missing: string) => `imports ${specifier}, but ${missing}.ts (or .js) does not exist. Fix: restore the file, or correct the import.`,
  unknownBuilder: (resource: string, builder: string, fieldName: string, known: readonly string[]) => {
    const close = didYouMean(builder, known);
    return `Resource ${resource}: field.${builder}('${fieldName}') is not a field builder.${close ? ` Did you mean field.${close}?` : ''} Fix: use one of ${known.map((name) => `field.${name}`).join(', ')}.`;
  },
  duplicateField: (resource: string, fieldName: string) => `Resource ${resource}: the field "${fieldName}" is declared twice. Fix: remove one of them.`,
  unknownTarget: (resource: string, fieldName: string, target: string, builder: string, known: readonly string[]) =>
    `Resource ${resource}: the field "${fieldName}" points at the resource "${target}", which does not exist (known resources: ${known.join(', ')}). ` +
    `Fix: correct the field name, or pass { resource: '<ResourceName>' } to field.${builder}('${fieldName}', …).`,
  fixSource: () => 'correct each file at the line shown',

  initUnsupportedScheme: (scheme: string) =>
    `Cannot read a ${scheme}:// database: init reads PostgreSQL. Fix: pass a postgres://user@host:5432/db URL, or the folder of a PGlite database.`,
  initNoPgliteFolder: (folder: string) =>
    `No PGlite database at ${folder}: the folder does not exist (init never creates one). Fix: pass the folder your app's PGlite database is in, or a postgres:// URL.`,
  initNotPgliteFolder: (folder: string) =>
    `${folder} is not a PGlite database folder (it holds no PG_VERSION). Fix: pass the folder your app's PGlite database is in, or a postgres:// URL.`,
  /** The URL's password (and user) never printed, nor the query string's password, sslpassword, sslkey (`urlWithoutSecrets`, as `openDatabase`'s messages). */
  initCannotOpen: (database: string, reason: string, url: boolean) =>
    `Cannot open the database ${url ? urlWithoutSecrets(database) : database}: ${reason.split('\n')[0]!.replace(/\.$/, '')}.` +
    (url ? ' Fix: check the URL (host, port, user, database name) and that the server is running.' : ''),

  initNeedsDatabase: (command: 'init' | 'resource') =>
    `panel-api ${command} needs a database: ${command === 'init' ? '--from-database' : '--database'} postgres://user@host:5432/db (or a PGlite data folder), DATABASE_URL or PGLITE_DATA_DIR (in the environment or .env), or the folder data/pglite.`,
  /** Core's own message names --database-url, which init and resource do not have. */
  initFolderInUse: (folder: string, pid: number | undefined, command: string, option: string) =>
    `The PGlite folder ${folder} is in use by ${pid === undefined ? 'another process' : `process ${pid}`} (a running server?): PGlite is one process at a time. Fix: stop that process, or point ${command} at PostgreSQL with ${option} postgres://user@host:5432/db.`,
  initSchemaNotOpenable: (schema: string) =>
    `The schema ${JSON.stringify(schema)} is not a lower-case identifier, and openDatabase({ schema }) opens only those (the resources name their tables without the schema). Fix: rename it (ALTER SCHEMA "${schema.replace(/"/g, '""')}" RENAME TO ${openableSchema(schema)}), then run init --schema ${openableSchema(schema)}.`,
  initSchemaToOpen: (schema: string, kind: 'postgres' | 'pglite') =>
    kind === 'postgres'
      ? `The resources name their tables without the schema "${schema}": open the database with openDatabase({ url, schema: '${schema}' }) in the app.`
      : `The resources name their tables without the schema "${schema}": the app serves them only from PostgreSQL opened with openDatabase({ url, schema: '${schema}' }) (PGlite takes no schema; there, move the tables to public).`,
  initNameCollision: (collisions: readonly { name: string; tables: readonly string[] }[]) => {
    const first = collisions[0]!;
    const pairs = collisions.map((c) => `the tables ${c.tables.map((t) => `"${t}"`).join(' and ')} would ${c.tables.length === 2 ? 'both' : 'all'} be the resource ${c.name}`).join('; ');
    return `Nothing written: ${pairs}. Fix: write ${collisions.some((c) => c.tables.length > 2) ? 'all but one of them' : 'one of them'} under another name first (panel-api resource <AnotherName> --from-table ${first.tables[0]}, with the same --database and --schema), then run init again; it keeps that name.`;
  },
  cliVersion: (version: string, node: string) => `@panel/api-cli ${version} (Node ${node})`,

  installWrote: (path: string, overwrite: boolean) => `✓ ${overwrite ? 'Updated' : 'Created'} ${path}`,
  installWould: (path: string, overwrite: boolean) => `${overwrite ? '~ Would update' : '+ Would create'} ${path}`,
  installPresent: (what: string, path: string) => `• ${what} already installed  ${path}`,
  installRegisterByHand: (registry: string, name: string) =>
    `Note: ${registry} has no \`migrations\` object to register "${name}" in; add the new file to the migrations your app passes to runMigrations.`,
  installNoRegistry: (registry: string, name: string) =>
    `Note: there is no ${registry}; add "${name}" to the migrations your app passes to runMigrations.`,
  installNameTaken: (path: string, line: number) =>
    `${path}:${line}: the name panelApi is taken, so the configuration block cannot be added. Fix: rename that declaration, or add export const panelApi = configurePanelApi({ manageTokensIf: () => false }) yourself.`,
  installNextSteps: () => [
    'Next:',
    '  1. Run the migrations (runMigrations in your app).',
    '  2. Set PANEL_API_TOKEN_PEPPER to 32 or more random characters (openssl rand -hex 32), or pass pepper to configurePanelApi.',
    '  3. Pass the configuration to the API: app.register(mountPanelApi, { panel, extensions: [panelApi] }).',
    '  4. Open manageTokensIf to the users who may manage API tokens.',
  ],
});
