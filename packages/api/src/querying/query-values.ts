/**
 * The query string's values as the querying parameters read them: a literal key
 * (`filter[view_count][gte]`) to its values. Fastify's default parser keeps bracketed keys as
 * they are; a parser that nests them (`qs`: `{ filter: { view_count: { gte: '1' } } }`) is
 * flattened back to the same keys, so both read alike.
 */
export function queryValues(query: Readonly<Record<string, unknown>>): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const add = (key: string, value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) add(key, item);
    } else if (value !== null && typeof value === 'object') {
      for (const [inner, nested] of Object.entries(value)) add(`${key}[${inner}]`, nested);
    } else if (value !== undefined) {
      const list = values.get(key) ?? [];
      list.push(String(value));
      values.set(key, list);
    }
  };
  for (const [key, value] of Object.entries(query)) add(key, value);
  return values;
}

/**
 * The problems of the keys that spell one of `names` with brackets (`q[]`, `after[x]`,
 * `pagination[]`): such a key is no parameter, and leaving it unread would answer another list
 * than the one asked (every row for a search, the first page for a cursor), silently.
 */
export function bracketedSpellings(values: ReadonlyMap<string, readonly string[]>, names: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of values.keys()) {
    const bracket = key.indexOf('[');
    const name = key.slice(0, bracket);
    if (bracket > 0 && names.includes(name)) problems.push(`${shown(key)} is not a parameter: write ${name}=<value>`);
  }
  return problems;
}

/** A value as an error message shows it: quoted, cut at 100 characters. */
export function shown(value: string): string {
  const characters = [...value];
  return JSON.stringify(characters.length > 100 ? `${characters.slice(0, 100).join('')}…` : value);
}
