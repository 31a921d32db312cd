import { sql } from 'kysely';
import type { PanelDatabase } from '../database/panel-database-types.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import type { CompiledResource } from './compiled-types.js';
import { learnColumnScale } from './column-scales.js';

/** A column a resource needs: on which table, for which resource and field, and why. */
interface Need {
  readonly resource: string;
  readonly field: string | undefined;
  readonly table: string;
  readonly column: string;
}

/** The tables and columns the resources name: their own table's key, fields and order, the other tables their associations read. */
function needs(resources: ReadonlyMap<string, CompiledResource>): { tables: Map<string, string>; columns: Need[] } {
  const tables = new Map<string, string>();
  const columns: Need[] = [];
  const need = (resource: string, field: string | undefined, table: string, column: string | undefined) => {
    if (column !== undefined) columns.push({ resource, field, table, column });
  };
  for (const resource of resources.values()) {
    if (!tables.has(resource.table)) tables.set(resource.table, resource.name);
    need(resource.name, undefined, resource.table, resource.primaryKey);
    need(resource.name, undefined, resource.table, resource.defaultOrder.column);
    for (const field of resource.fields) {
      need(resource.name, field.name, resource.table, field.column);
      const target = field.target === undefined ? undefined : resources.get(field.target);
      if (!target) continue;
      if (field.labelColumn !== undefined) need(resource.name, field.name, target.table, field.labelColumn);
      const join = field.extra.join as { table: string; ownKey: string; targetKey: string } | undefined;
      if (join) {
        if (!tables.has(join.table)) tables.set(join.table, resource.name);
        need(resource.name, field.name, join.table, join.ownKey);
        need(resource.name, field.name, join.table, join.targetKey);
      } else if (field.column === undefined && field.foreignKey !== undefined) need(resource.name, field.name, target.table, field.foreignKey);
    }
  }
  return { tables, columns };
}

/**
 * Gives each field on a `numeric(p, s)` column (s not negative) its column's scale, so that a
 * `field.decimal` without one refuses what the column would round; returns a problem for each
 * declared `scale` above its column's (the database would round those places away).
 */
function learnScales(resources: ReadonlyMap<string, CompiledResource>, scales: ReadonlyMap<string, Readonly<Record<string, number>>>): string[] {
  const problems: string[] = [];
  for (const resource of resources.values()) {
    const columns = scales.get(resource.table);
    if (!columns) continue;
    for (const field of resource.fields) {
      const scale = field.column === undefined ? undefined : columns[field.column];
      if (scale === undefined) continue;
      const declared = field.definition.options.scale;
      if (declared !== undefined && declared > scale) {
        problems.push(`Resource ${resource.name}, field "${field.name}": declares scale ${declared}, but the column "${field.column}" of the table "${resource.table}" keeps ${scale} decimal ${scale === 1 ? 'place' : 'places'}, and the database would round the others away. Fix: declare scale: ${Math.max(scale, 0)}, or alter the column to keep ${declared} (numeric(p, ${declared})).`);
      }
      if (scale >= 0) learnColumnScale(field, scale);
    }
  }
  return problems;
}

/**
 * Checks, in one catalog query, that every resource's table exists (on the search path) with the
 * columns its key, fields, order and associations name; throws a `PanelConfigError` with one line
 * per problem (the resource, the field, the table and the fix). Each field on a `numeric(p, s)`
 * column learns the column's scale (see `fieldScale`), and a declared `scale` above it is a
 * problem. A database that cannot be reached
 * is not checked here (the readiness check and the first request say so).
 */
export async function checkResourceSchema(database: PanelDatabase, resources: ReadonlyMap<string, CompiledResource>): Promise<void> {
  if (resources.size === 0) return;
  const { tables, columns } = needs(resources);
  let found: Map<string, Set<string>>;
  let scales: Map<string, Readonly<Record<string, number>>>;
  try {
    // A numeric(p, s) column's typmod is ((p << 16) | s) + 4, its scale sign-extended from 11 bits (PostgreSQL 15 allows a negative one).
    const { rows } = await sql<{ name: string; columns: string[]; scales: Record<string, number> }>`
      select c.relname as name, array_agg(a.attname::text) as columns,
        coalesce(json_object_agg(a.attname, (((a.atttypmod - 4) & 2047) # 1024) - 1024) filter (where a.atttypid = 'numeric'::regtype and a.atttypmod >= 4), '{}'::json) as scales
      from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relname = any(${[...tables.keys()]}::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f') and pg_table_is_visible(c.oid)
      group by c.relname`.execute(database.db);
    found = new Map(rows.map((row) => [row.name, new Set(row.columns)]));
    scales = new Map(rows.map((row) => [row.name, row.scales]));
  } catch {
    return;
  }
  const problems = learnScales(resources, scales);
  for (const [table, resource] of tables) {
    if (!found.has(table)) problems.push(`Resource ${resource}: the table "${table}" does not exist. Fix: create it (a migration), or set static table to the table that holds the records.`);
  }
  const seen = new Set<string>();
  for (const { resource, field, table, column } of columns) {
    const have = found.get(table);
    const key = `${resource}\u0000${table}\u0000${column}`;
    if (!have || have.has(column) || seen.has(key)) continue;
    seen.add(key);
    const who = field === undefined ? `Resource ${resource}` : `Resource ${resource}, field "${field}"`;
    problems.push(`${who}: the table "${table}" has no column "${column}". Fix: add it (alter table ${table} add column ${column} …), or change the resource to name a column the table has.`);
  }
  if (problems.length > 0) throw new PanelConfigError(`The database does not match the resources:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}
