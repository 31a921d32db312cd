import { sql, type Kysely } from 'kysely';

/** One column of a table, as PostgreSQL's catalog describes it. */
export interface CatalogColumn {
  readonly attnum: number;
  readonly name: string;
  /** The type as `format_type` writes it (`character varying(160)`, `numeric(10,2)`). */
  readonly type: string;
  /** The type's name in `pg_type` (`varchar`, `int4`, `_text`, an enum's name). */
  readonly typname: string;
  /** `e` for an enum, `b` for a base type, … (`pg_type.typtype`). */
  readonly typtype: string;
  /** For an array, its element type's name (`text` for `text[]`). */
  readonly element: string | null;
  readonly notNull: boolean;
  /** A default, an identity or a generated column: the database fills it when a write leaves it out. */
  readonly hasDefault: boolean;
  /** A generated column (`generated always as (…) stored`) or a `generated always` identity: the database refuses a value written to it. */
  readonly generated: boolean;
  /** An enum's values, in order. */
  readonly enumValues: readonly string[] | null;
  /** The length of a `varchar(n)` / `char(n)`, else null. */
  readonly maxLength: number | null;
}

/** A foreign key, as column numbers of both tables. */
export interface CatalogForeignKey {
  readonly columns: readonly number[];
  readonly target: string;
  readonly targetColumns: readonly number[];
}

/** A table or view of one schema. */
export interface CatalogTable {
  readonly name: string;
  /** `r` table, `p` partitioned table, `v` view, `m` materialized view, `f` foreign table. */
  readonly kind: string;
  readonly columns: readonly CatalogColumn[];
  /** The primary key's column numbers, or null without one. */
  readonly primaryKey: readonly number[] | null;
  readonly foreignKeys: readonly CatalogForeignKey[];
  /** Column numbers of single-column unique constraints (a foreign key there is a has_one on the other side). */
  readonly uniqueColumns: readonly number[];
}

/**
 * Reads the tables, views, columns, keys and enums of one schema in one catalog query (the
 * schema name is a bound parameter). Tables come in name order, columns in table order.
 */
export async function readCatalog(db: Kysely<any>, schema: string): Promise<CatalogTable[]> {
  const { rows } = await sql<{ name: string; kind: string; columns: CatalogColumn[] | null; primary_key: number[] | null; foreign_keys: CatalogForeignKey[] | null; unique_columns: number[] | null }>`
    select c.relname as name, c.relkind::text as kind,
      (select json_agg(json_build_object(
          'attnum', a.attnum, 'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'typname', t.typname, 'typtype', t.typtype::text,
          'element', et.typname, 'notNull', a.attnotnull, 'hasDefault', a.atthasdef or a.attidentity <> '' or a.attgenerated <> '', 'generated', a.attgenerated <> '' or a.attidentity = 'a',
          'enumValues', (select json_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid),
          'maxLength', case when t.typname in ('varchar', 'bpchar') and a.atttypmod > 4 then a.atttypmod - 4 end
        ) order by a.attnum)
        from pg_attribute a join pg_type t on t.oid = a.atttypid left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
      (select k.conkey::int[] from pg_constraint k where k.conrelid = c.oid and k.contype = 'p') as primary_key,
      (select json_agg(json_build_object('columns', k.conkey, 'target', fc.relname, 'targetColumns', k.confkey) order by k.conname)
        from pg_constraint k join pg_class fc on fc.oid = k.confrelid
        where k.conrelid = c.oid and k.contype = 'f' and fc.relnamespace = c.relnamespace) as foreign_keys,
      (select array_agg(k.conkey[1])::int[] from pg_constraint k where k.conrelid = c.oid and k.contype = 'u' and array_length(k.conkey, 1) = 1) as unique_columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition
    order by c.relname`.execute(db);
  return rows.map((row) => ({
    name: row.name,
    kind: row.kind,
    columns: row.columns ?? [],
    primaryKey: row.primary_key,
    foreignKeys: row.foreign_keys ?? [],
    uniqueColumns: row.unique_columns ?? [],
  }));
}
