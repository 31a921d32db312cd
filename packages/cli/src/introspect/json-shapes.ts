import { sql, type Kysely } from 'kysely';
import type { CatalogTable } from './catalog.js';

/**
 * What a `json` / `jsonb` column holds, read from its values: `string-map` (every value an object
 * of strings), `objects` (every value an object), `other` (an array or a scalar among them),
 * `empty` (no value yet).
 */
export type JsonShape = 'string-map' | 'objects' | 'other' | 'empty';

/** How many values of a column are read: enough to see its shape, bounded on a big table. */
export const JSON_SAMPLE = 10_000;

/**
 * The shape of every `json` / `jsonb` column of the tables, keyed `table.column`: the catalog
 * says only "JSON", and the field types that hold JSON take objects (`field.json`) or objects of
 * strings (`field.keyValue`). One query per such column, over its first `JSON_SAMPLE` values;
 * a column that cannot be read has no shape.
 */
export async function readJsonShapes(db: Kysely<any>, schema: string, tables: readonly CatalogTable[]): Promise<Map<string, JsonShape>> {
  const shapes = new Map<string, JsonShape>();
  for (const table of tables) {
    if (table.kind !== 'r' && table.kind !== 'p') continue;
    for (const column of table.columns) {
      if (column.typname !== 'json' && column.typname !== 'jsonb') continue;
      // CASE, not AND: jsonb_each raises on an array, and AND may evaluate either side first.
      const read = sql<{ values: number; objects: boolean; strings: boolean }>`
        select count(*)::int as values,
          coalesce(bool_and(jsonb_typeof(v) = 'object'), true) as objects,
          coalesce(bool_and(case when jsonb_typeof(v) = 'object' then not exists (select 1 from jsonb_each(v) e where jsonb_typeof(e.value) <> 'string') else false end), true) as strings
        from (select ${sql.id(column.name)}::jsonb as v from ${sql.id(schema, table.name)} where ${sql.id(column.name)} is not null limit ${JSON_SAMPLE}) sample`.execute(db);
      // A table the role may not read keeps the catalog's mapping (field.json) rather than failing init.
      const row = (await read.catch(() => undefined))?.rows[0];
      if (row === undefined) continue;
      shapes.set(`${table.name}.${column.name}`, row.values === 0 ? 'empty' : row.strings ? 'string-map' : row.objects ? 'objects' : 'other');
    }
  }
  return shapes;
}
