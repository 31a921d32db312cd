import { withDatabaseSetupFix } from './database-setup-problem.js';
import * as kysely from 'kysely';
import { sql, type DatabaseIntrospector, type Kysely, type MigrationProvider, type Migrator, type TableMetadata } from 'kysely';
import type { PanelDatabase } from './panel-database.js';

/**
 * A migration: `up` (and optionally `down`) against a Kysely instance. Panel's own type, the
 * shape Kysely's migrator runs: Kysely 0.29 no longer exports its `Migration` from `kysely`.
 */
export interface Migration {
  up(db: Kysely<any>): Promise<void>;
  down?(db: Kysely<any>): Promise<void>;
}

/**
 * Kysely's migrator class: exported by `kysely` up to 0.28, by `kysely/migration` from 0.29
 * (both inside the peer range). The subpath is named through a variable so that the types,
 * compiled against 0.28, do not ask for it.
 */
let migratorClass: Promise<typeof Migrator> | undefined;
function loadMigrator(): Promise<typeof Migrator> {
  const exported = (kysely as Record<string, unknown>).Migrator as typeof Migrator | undefined;
  if (exported) return Promise.resolve(exported);
  const subpath = 'kysely/migration';
  migratorClass ??= import(subpath).then((module: { Migrator: typeof Migrator }) => module.Migrator);
  return migratorClass;
}

/** Options of `runMigrations`. */
export interface RunMigrationsOptions {
  /**
   * The table that records which of these migrations ran (its lock table is `<table>_lock`).
   * Default `kysely_migration`. A set of migrations with its own numbering, such as
   * `panelMigrations`, keeps its own table, so the two sets never need ordering between them.
   */
  table?: string;
}

/** How many times a migration run that met a concurrently dropped schema is tried in all. */
const ATTEMPTS = 5;

/**
 * Whether an error is another schema vanishing under Kysely's migrator: to find its own
 * tables, the migrator lists the tables of every schema it may use
 * (`has_schema_privilege(nspname, 'USAGE')` per schema), and a schema that another process
 * drops between the catalog scan and that call fails the whole list with 3F000
 * (`schema "…" does not exist`), naming the other schema. Nothing has run then, so the run can
 * be tried again; a missing schema of the database's own is a real error.
 */
export function isOtherSchemaDropped(error: unknown, ownSchema: string | undefined): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== '3F000' || typeof message !== 'string') return false;
  return ownSchema === undefined || !message.includes(`"${ownSchema}"`);
}

/**
 * Whether an error met while the migrator sets up (before any migration runs) is another
 * schema's table changing under its catalog scan: the scan lists every schema's tables and
 * columns, and a table that another process drops or alters meanwhile fails it with 42P01
 * (`relation "…" does not exist`) or 42703 (`column "…" of relation "…" does not exist`).
 * Nothing has run then, so the run can be tried again, as for a dropped schema.
 */
export function isCatalogChangedDuringSetup(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === '42P01' || code === '42703';
}

/**
 * The tables the migrator may take for its own: those of the database's schema, or of the
 * search path's schemas when it names none (where an unqualified `kysely_migration` resolves).
 * Kysely's own introspector lists the tables of every schema on the server, calling
 * `has_schema_privilege` and `pg_get_serial_sequence` on each, so a schema or table that
 * another process drops meanwhile (a tenant, a parallel test file) fails the scan; this one
 * never looks at another schema. Only names are read: the migrator asks nothing else.
 */
function ownSchemaIntrospector(db: Kysely<any>, schema: string | undefined): DatabaseIntrospector {
  const getTables = async (): Promise<TableMetadata[]> => {
    const inScope = schema === undefined ? sql<boolean>`ns.nspname = any(current_schemas(false))` : sql<boolean>`ns.nspname = ${schema}`;
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p') and ${inScope}`.execute(db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === 'v', columns: [] }));
  };
  return {
    getSchemas: async () => (await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(db)).rows,
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
}

/**
 * The database as the migrator sees it: the same instance, whose `introspection` is
 * `ownSchemaIntrospector`. Kysely keeps its state in private fields, so every other member
 * is read from, and bound to, the instance itself.
 */
function withOwnSchemaIntrospection(db: Kysely<any>, schema: string | undefined): Kysely<any> {
  const introspection = ownSchemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Applies migrations in name order with Kysely's migrator (it records them in
 * `kysely_migration` and takes a lock, so two processes never migrate at once). Throws the
 * first failure. The migrator looks only at the database's own schema (see
 * `ownSchemaIntrospector`), so other schemas coming and going never fail its setup; should a
 * run still fail because another schema was dropped meanwhile (`isOtherSchemaDropped`) or a
 * catalog read met a table changing (`isCatalogChangedDuringSetup`), it is tried again, up to
 * five times in all.
 */
export async function runMigrations(database: PanelDatabase, migrations: Record<string, Migration>, options: RunMigrationsOptions = {}): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const table = options.table === undefined ? {} : { migrationTableName: options.table, migrationLockTableName: `${options.table}_lock` };
  // The migrator looks for its tables in every schema; name the database's own so that two
  // schemas on one server (a test file each) never take each other's bookkeeping for theirs.
  // It sees only the tables of that schema (see `ownSchemaIntrospector`). On the primary: a
  // replica's copy of the migration tables may be behind.
  const db = withOwnSchemaIntrospection(database.primary ?? database.db, database.schema);
  const MigratorClass = await loadMigrator();
  const migrator = new MigratorClass({ db, provider, ...table, ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
  for (let attempt = 1; ; attempt += 1) {
    // The migrator returns a failed migration's error, but throws one met while it sets up its tables.
    const { error, results } = await migrator.migrateToLatest().catch((thrown: unknown) => ({ error: thrown, results: undefined }));
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // No results: the migrator failed while setting up, before any migration ran.
    const raced = isOtherSchemaDropped(error, database.schema) || (results === undefined && isCatalogChangedDuringSetup(error));
    // A setup mistake (no such database, server down, wrong password) is one line naming the fix.
    if (attempt >= ATTEMPTS || !raced) throw withDatabaseSetupFix(error);
    // A moment for whatever drops schemas (parallel test files, tenants) to move on.
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
}
