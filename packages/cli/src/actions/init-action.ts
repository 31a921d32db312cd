import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isPanelError, openDatabase, resourceNaming, type PanelDatabase, type PgliteFolderInUseError } from '@panel/core';
import { scanResources } from '../discovery/scan-resources.js';
import type { AppConfig } from '../config/app-config.js';
import { readCatalog, type CatalogTable } from '../introspect/catalog.js';
import { readJsonShapes, type JsonShape } from '../introspect/json-shapes.js';
import { inferResources, type InferredResource, type NotServed } from '../introspect/infer-resources.js';
import { initMarkTable, printable, renderResource } from '../introspect/render-resource.js';
import { resourceDrift } from '../introspect/resource-drift.js';
import { databaseSource, type DatabaseSource } from '../introspect/database-source.js';
import { messages } from '../messages.js';
import { generateAction, isValidVersion } from './generate-action.js';
import { openApiAction } from './openapi-action.js';

/** What `panel-api init --from-database` (or `resource <Name> --from-table`) was asked for. */
export interface InitContext {
  readonly app: AppConfig;
  /** A `postgres://` URL, or a PGlite data folder. */
  readonly database: string;
  /** The option that names the database (`--from-database` for init, `--database` for resource), for the fixes. */
  readonly option?: '--from-database' | '--database';
  readonly schema: string;
  readonly version: string;
  readonly check: boolean;
  /** Only this table, as this resource (`resource <Name> --from-table <table>`). */
  readonly only?: { readonly name: string; readonly table: string } | undefined;
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
}

/** The schemas `openDatabase({ schema })` opens (it puts the name on the search path unquoted): core's rule. */
const OPENABLE_SCHEMA = /^[a-z_][a-z0-9_]*$/;

/** Opens the database `init` reads: a PostgreSQL URL, or an existing PGlite data folder. */
async function openSource(source: DatabaseSource): Promise<PanelDatabase> {
  return source.kind === 'postgres' ? openDatabase({ url: source.url, maxConnections: 1 }) : openDatabase({ dataDir: source.folder });
}

/** The catalog of the schema, or the one-line reason the database cannot be read (never a stack trace). */
async function catalogOf(source: DatabaseSource, database: string, schema: string, option: InitContext['option']): Promise<{ tables: CatalogTable[]; jsonShapes: Map<string, JsonShape> } | { problem: string }> {
  const problem = (error: unknown) => {
    if (isPanelError(error, 'PANEL_ERR_PGLITE_FOLDER_IN_USE')) {
      const held = error as PgliteFolderInUseError;
      return { problem: option === '--database' ? messages.initFolderInUse(held.folder, held.pid, 'resource', '--database') : messages.initFolderInUse(held.folder, held.pid, 'init', '--from-database') };
    }
    return { problem: messages.initCannotOpen(database, error instanceof Error ? error.message : String(error), source.kind === 'postgres') };
  };
  let opened: PanelDatabase;
  try {
    opened = await openSource(source);
  } catch (error) {
    return problem(error);
  }
  // A PostgreSQL pool connects on the first query: a wrong database, role, port or host fails here.
  try {
    const tables = await readCatalog(opened.db, schema);
    return { tables, jsonShapes: await readJsonShapes(opened.db, schema, tables) };
  } catch (error) {
    return problem(error);
  } finally {
    await opened.close().catch(() => undefined);
  }
}

/** The resources of the catalog, narrowed to one table for `resource <Name> --from-table`. */
function selected(
  { tables, jsonShapes }: { tables: readonly CatalogTable[]; jsonShapes: ReadonlyMap<string, JsonShape> },
  only: InitContext['only'],
  written: ReadonlyMap<string, { file: string; text: string }>,
  authors: ReadonlyMap<string, { name: string }>,
): { resources: InferredResource[]; notServed: NotServed[] } | string {
  // A table that has a resource keeps its name (`resource Individual --from-table person`, an author's WritingTool over pen).
  const names = new Map<string, string>();
  for (const [table, { text }] of written) {
    const name = /^export default class (\w+)Resource\b/m.exec(text)?.[1];
    if (name !== undefined) names.set(table, name);
  }
  for (const [table, { name }] of authors) names.set(table, name);
  if (only) names.set(only.table, only.name);
  const inferred = inferResources(tables, { names, jsonShapes, associateWith: only ? new Set([...written.keys(), ...authors.keys(), only.table]) : undefined });
  if (!only) {
    // The explicit name of `resource --from-table` settles a collision; a whole-schema init refuses it before writing.
    if (inferred.collisions.length > 0) return messages.initNameCollision(inferred.collisions);
    return inferred;
  }
  const refused = inferred.notServed.find((n) => n.table === only.table);
  if (refused) return `The table "${only.table}" is not served: ${refused.reason}.`;
  const found = inferred.resources.find((r) => r.table === only.table);
  if (!found) return `No table "${only.table}" in the schema. Fix: name one of ${inferred.resources.map((r) => r.table).join(', ')}.`;
  return { resources: [{ ...found, stem: only.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase() }], notServed: [] };
}

/** The resource files `init` wrote in the folder (they start with its mark), by table. */
function initFiles(dir: string): Map<string, { file: string; text: string }> {
  const found = new Map<string, { file: string; text: string }>();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    if (!/\.(ts|js|mts|mjs)$/.test(name)) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    const table = initMarkTable(text);
    if (table !== undefined) found.set(table, { file: name, text });
  }
  return found;
}

/** The tables served by resources a person wrote (files without init's first line): their file and resource name, by table. */
function authorResources(app: AppConfig, written: ReadonlyMap<string, { file: string }>): Map<string, { file: string; name: string }> {
  const initWritten = new Set([...written.values()].map((w) => w.file));
  const found = new Map<string, { file: string; name: string }>();
  for (const resource of scanResources(app.appRoot, app.resourcesDir).resources) {
    if (initWritten.has(basename(resource.file))) continue;
    found.set(resource.table ?? resourceNaming(resource.name).routeKey, { file: resource.file, name: resource.name });
  }
  return found;
}

/**
 * Introspects the schema's catalog (one query, and one per JSON column for what it holds) and
 * writes one resource file per served table, never over an existing file nor for a table a
 * resource of the author's serves; checks every argument before anything is opened; prints what it inferred and each table it does not serve, with
 * the reason; then generates the controllers and the OpenAPI document. With `check`, writes
 * nothing and exits 1 when a table and its resource file differ (a column added, gone, or of
 * another type; a table added or gone).
 */
export async function initAction(context: InitContext): Promise<number> {
  const { app, print, printError } = context;
  // Every argument is checked before the database is opened and before anything is written.
  if (!isValidVersion(context.version)) {
    printError(messages.invalidVersion(context.version));
    return 2;
  }
  if (!OPENABLE_SCHEMA.test(context.schema)) {
    printError(messages.initSchemaNotOpenable(context.schema));
    return 2;
  }
  const source = databaseSource(context.database);
  if ('problem' in source) {
    printError(source.problem);
    return 2;
  }
  const catalog = await catalogOf(source, context.database, context.schema, context.option);
  if ('problem' in catalog) {
    printError(catalog.problem);
    return 2;
  }
  if (catalog.tables.length === 0) {
    printError(`The schema "${context.schema}" has no tables. Fix: pass --schema <name>, or create the tables first.`);
    return 2;
  }
  const dir = join(app.appRoot, app.resourcesDir);
  const written = initFiles(dir);
  const authors = authorResources(app, written);
  const plan = selected(catalog, context.only, written, authors);
  if (typeof plan === 'string') {
    printError(plan);
    return 1;
  }
  const language = app.language === 'js' ? 'js' : 'ts';
  const target = (resource: InferredResource) => join(dir, `${resource.stem}.${language}`);
  if (context.check) {
    // A table init would not write (a resource of the author's serves it, or its file's path is taken) is not "added".
    const kept = new Set(plan.resources.filter((r) => authors.has(r.table) || existsSync(target(r))).map((r) => r.table));
    const drift = resourceDrift(plan.resources, written, context.only === undefined, kept);
    for (const line of drift) print(line);
    print(drift.length === 0 ? 'Up to date: every resource written by init matches its table.' : `${drift.length} difference(s) between the tables and the resources.`);
    return drift.length === 0 ? 0 : 1;
  }
  mkdirSync(dir, { recursive: true });
  for (const resource of plan.resources) {
    const file = target(resource);
    const author = written.has(resource.table) ? undefined : authors.get(resource.table);
    const kept = written.get(resource.table)?.file ?? (existsSync(file) ? `${resource.stem}.${language}` : undefined);
    if (author !== undefined && kept === undefined) print(`kept     ${author.file} (a resource of yours serves the table ${printable(resource.table)}; init never overwrites a resource)`);
    else if (kept !== undefined) print(`kept     ${join(app.resourcesDir, kept)} (exists; init never overwrites a resource)`);
    else {
      writeFileSync(file, renderResource(resource, language));
      print(`create   ${join(app.resourcesDir, `${resource.stem}.${language}`)}`);
    }
    const key = `${resource.primaryKey} ${resource.primaryKeyType}`;
    print(`  ${resource.name} (table ${printable(resource.table)}, key ${key}${resource.title ? `, label ${resource.title}` : ''})`);
    for (const f of resource.fields) print(`    ${f.inferred}: ${f.source}`);
    for (const o of resource.leftOut) print(`    ${printable(o.column)}: left out, ${o.reason}`);
  }
  for (const n of plan.notServed) print(`not served  ${printable(n.table)}: ${n.reason}`);
  const generated = await generateAction({ appRoot: app.appRoot, resourcesDir: app.resourcesDir, controllersDir: app.controllersDir, language: app.language, version: context.version, force: false, dryRun: false, withBase: true, print, printError });
  if (generated.exitCode !== 0) return generated.exitCode;
  const documented = await openApiAction({ app, version: context.version, at: 'api', out: undefined, check: false, print, printError });
  if (documented === 0 && context.schema !== 'public') print(messages.initSchemaToOpen(context.schema, source.kind));
  return documented;
}
