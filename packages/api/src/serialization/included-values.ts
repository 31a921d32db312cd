import type { CompiledResource, IncludedPage, KeysetPosition, RecordRow } from '@panel/core';
import type { IncludePath } from '../querying/include-params.js';
import { includedKey, targetKeyOf, type IncludedRecords } from '../querying/include-loader.js';

/** Serializes one included record of `resource` with `fields`, as the target's own show would for this actor (undefined: the controller answers no object). */
export type IncludedSerializer = (resource: CompiledResource, row: RecordRow, fields: ReadonlySet<string>) => Record<string, unknown>;

/** The URL of a to-many path's next page for one parent, after `last`; null when no URL this actor can call expresses it. */
export type IncludedNextPage = (path: IncludePath, parent: RecordRow, last: KeysetPosition) => string | null;

const EMPTY_PAGE: IncludedPage = Object.freeze({ rows: [], hasMore: false, last: undefined });

/**
 * Puts the included records into serialized records, in place: each included association's
 * value (as its type answered it: `{ id, label }`, `{ id }`, `{ count }`) gains `record` (to-one:
 * the target's record, or `null` when the key is null, the row is gone or outside the actor's
 * scope — the three alike), or `records`, `has_more` and `next` (to-many). A value the answer
 * does not carry (a field the actor does not see on that record) and a `null` value stay as
 * they are. `records[i]` is the serialization of `rows[i]`.
 */
export function attachIncluded(input: {
  records: readonly Record<string, unknown>[];
  rows: readonly RecordRow[];
  paths: readonly IncludePath[];
  loaded: IncludedRecords;
  serialize: IncludedSerializer;
  nextPage: IncludedNextPage;
}): void {
  const { paths, loaded, serialize, nextPage } = input;
  // The paths under each path (undefined: the top level), found once for every record of the answer.
  const children = new Map<string | undefined, IncludePath[]>();
  for (const path of paths) children.set(path.parentPath, [...(children.get(path.parentPath) ?? []), path]);
  const included = (path: IncludePath, child: RecordRow): Record<string, unknown> => {
    const json = serialize(path.target, child, path.fields);
    attach(json, child, path.path);
    return json;
  };
  const attach = (record: Record<string, unknown>, row: RecordRow, parentPath: string | undefined): void => {
    for (const path of children.get(parentPath) ?? []) {
      const name = path.field.name;
      const value = record[name];
      if (value === undefined || value === null || typeof value !== 'object') continue;
      if (path.many) {
        const page = loaded.many.get(path.path)?.get(includedKey(row[path.parent.primaryKey])) ?? EMPTY_PAGE;
        record[name] = { ...value, records: page.rows.map((child) => included(path, child)), has_more: page.hasMore, next: page.hasMore && page.last ? nextPage(path, row, page.last) : null };
      } else {
        const key = targetKeyOf(path, row);
        const target = key === null || key === undefined ? undefined : loaded.one.get(path.path)?.get(includedKey(key));
        record[name] = { ...value, record: target ? included(path, target) : null };
      }
    }
  };
  for (let i = 0; i < input.records.length; i += 1) attach(input.records[i]!, input.rows[i]!, undefined);
}
