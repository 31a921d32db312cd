import type { IncludedPage, ReadableRecords, RecordRow, RecordsRepository } from '@panel/core';
import type { IncludePath } from './include-params.js';

/** What the include paths of one answer loaded: per path, the to-one records by target key, or the to-many pages by parent key. */
export interface IncludedRecords {
  readonly one: ReadonlyMap<string, ReadonlyMap<string, RecordRow>>;
  readonly many: ReadonlyMap<string, ReadonlyMap<string, IncludedPage>>;
}

/** A primary key as the included records are keyed by. */
export const includedKey = (value: unknown): string => String(value);

/** The key of the to-one target a row names (a `belongs_to`'s column, a `has_one`'s id), as its type says. */
export function targetKeyOf(path: IncludePath, row: RecordRow): unknown {
  const include = path.field.kind.association!.include!;
  return include.kind === 'one' ? include.targetKey(path.field, row) : undefined;
}

/**
 * Loads the records of every include path for `rows` (the root's records, loaded with the
 * fields the first level needs), one statement per path whatever the number of rows: a level's
 * paths run together, each nested path from the rows its parent path loaded. Each target is
 * read on its show view, through the actor's scope of it (`readable`), with its own association
 * values narrowed the same way.
 */
export async function loadIncludes(input: { records: RecordsRepository; paths: readonly IncludePath[]; rows: readonly RecordRow[]; readable: ReadableRecords | undefined }): Promise<IncludedRecords> {
  const { records, paths, readable } = input;
  const one = new Map<string, Map<string, RecordRow>>();
  const many = new Map<string, Map<string, IncludedPage>>();
  /** The rows a path's records hang from: the root's, or every record its parent path loaded. */
  const parentsOf = (path: IncludePath): readonly RecordRow[] => {
    if (path.parentPath === undefined) return input.rows;
    const loaded = one.get(path.parentPath);
    if (loaded) return [...loaded.values()];
    return [...(many.get(path.parentPath)?.values() ?? [])].flatMap((page) => page.rows);
  };
  const depth = (path: IncludePath) => path.path.split('.').length;
  const deepest = Math.max(0, ...paths.map(depth));
  for (let level = 1; level <= deepest; level += 1) {
    await Promise.all(
      paths
        .filter((path) => depth(path) === level)
        .map(async (path) => {
          const parents = parentsOf(path);
          const common = { field: path.field, view: 'show' as const, scope: readable?.(path.target), readable, fields: path.fields };
          if (path.many) {
            const pages = await records.includeMany({ ...common, parent: path.parent, parentIds: parents.map((row) => row[path.parent.primaryKey]), perPage: path.perPage, sort: path.sort });
            many.set(path.path, pages);
          } else {
            one.set(path.path, await records.includeOne({ ...common, ids: parents.map((row) => targetKeyOf(path, row)) }));
          }
        }),
    );
  }
  return { one, many };
}
