import type { InferredResource } from './infer-resources.js';

/** Field builders whose first argument is a column of the resource's own table. */
const COLUMN_FIELD = /field\.(id|text|textarea|markdown|integer|bigint|decimal|boolean|date|datetime|select|tags|keyValue|json)\(\s*'([A-Za-z_][A-Za-z0-9_]*)'/g;
const BELONGS_TO = /field\.belongsTo\(\s*'([A-Za-z_][A-Za-z0-9_]*)'([^)]*)\)/g;

/** The columns a resource file names, each with its builder (`text`, `belongsTo`): its column fields, and its belongs_to foreign keys. */
function namedColumns(text: string): Map<string, string> {
  const columns = new Map<string, string>();
  for (const match of text.matchAll(COLUMN_FIELD)) columns.set(match[2]!, match[1]!);
  if (/field\.id\(\s*\)/.test(text)) columns.set('id', 'id');
  for (const match of text.matchAll(BELONGS_TO)) columns.set(/foreignKey:\s*'([^']+)'/.exec(match[2]!)?.[1] ?? `${match[1]}_id`, 'belongsTo');
  return columns;
}

/** The builder of a field's source (`field.text('title', …)` → `text`). */
const builderOf = (source: string) => /^field\.(\w+)\(/.exec(source)?.[1];

/**
 * What differs between the tables (as `init` infers them now) and the resource files `init`
 * wrote (as edited since): a column added to a table, a column gone, a column whose inferred
 * field changed (its builder: an option edited by hand is not drift), a table without a resource file, a file whose table is gone. A file
 * a person wrote (without init's first line) is not compared, and a table in `servedElsewhere`
 * (a resource of the author's serves it, or init's path for it is taken) is not "added".
 */
export function resourceDrift(resources: readonly InferredResource[], files: ReadonlyMap<string, { file: string; text: string }>, wholeSchema: boolean, servedElsewhere: ReadonlySet<string> = new Set()): string[] {
  const lines: string[] = [];
  const tables = new Set(resources.map((r) => r.table));
  for (const resource of resources) {
    const found = files.get(resource.table);
    if (!found) {
      if (wholeSchema && !servedElsewhere.has(resource.table)) lines.push(`table added    ${resource.table}: no resource file (run panel-api init --from-database … to write it)`);
      continue;
    }
    const named = namedColumns(found.text);
    const columns = new Set<string>();
    for (const field of resource.fields) {
      if (field.column.includes('.')) continue;
      columns.add(field.column);
      if (found.text.includes(field.source)) continue;
      // An option added or changed by hand (`{ sortable: true }`) is the author's: only another builder is a changed type.
      const builder = named.get(field.column);
      if (builder !== undefined && builder === builderOf(field.source)) continue;
      lines.push(builder !== undefined ? `type changed   ${resource.table}.${field.column} (${found.file}): now ${field.inferred}: ${field.source}` : `column added   ${resource.table}.${field.column} (${found.file}): ${field.inferred}: ${field.source}`);
    }
    for (const left of resource.leftOut) columns.add(left.column);
    for (const column of named.keys()) if (!columns.has(column)) lines.push(`column gone    ${resource.table}.${column} (${found.file}): the table has no such column; remove its field`);
  }
  if (wholeSchema) for (const [table, { file }] of files) if (!tables.has(table)) lines.push(`table gone     ${table} (${file}): the schema has no such served table; remove the resource`);
  return lines;
}
