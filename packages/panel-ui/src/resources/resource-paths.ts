/** The resource screens' URLs under the panel's root path (`/panel/resources/blog_posts/7/edit`). */
export class ResourcePaths {
  readonly base: string;

  constructor(rootPath: string) {
    this.base = `${rootPath === '/' ? '' : rootPath}/resources`;
  }

  index(routeKey: string): string {
    return `${this.base}/${routeKey}`;
  }

  record(routeKey: string, id: unknown): string {
    return `${this.base}/${routeKey}/${encodeURIComponent(String(id))}`;
  }

  newRecord(routeKey: string): string {
    return `${this.base}/${routeKey}/new`;
  }

  edit(routeKey: string, id: unknown): string {
    return `${this.record(routeKey, id)}/edit`;
  }

  remove(routeKey: string, id: unknown): string {
    return `${this.record(routeKey, id)}/delete`;
  }

  association(routeKey: string, id: unknown, association: string): string {
    return `${this.record(routeKey, id)}/${association}`;
  }
}

/** A query string as ordered name/value pairs, literal names kept (`filter[published][eq]`). */
export type QueryPairs = readonly (readonly [string, string])[];

/** The pairs of a parsed query string (a repeated name keeps each value, in order). */
export function queryPairs(query: Readonly<Record<string, unknown>>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) if (typeof one === 'string') pairs.push([name, one]);
  }
  return pairs;
}

/**
 * `path` with the query `pairs`, changed: a name in `changes` loses its old values and takes
 * the new one (none when undefined). Names and values are percent-encoded.
 */
export function withQuery(path: string, pairs: QueryPairs, changes: Readonly<Record<string, string | undefined>> = {}): string {
  const kept: [string, string][] = pairs.filter(([name]) => !Object.hasOwn(changes, name)).map(([name, value]): [string, string] => [name, value]);
  for (const [name, value] of Object.entries(changes)) if (value !== undefined) kept.push([name, value]);
  const search = new URLSearchParams(kept.map(([name, value]): [string, string] => [name, value])).toString();
  return search === '' ? path : `${path}?${search}`;
}
