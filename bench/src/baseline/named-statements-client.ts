import pg from 'pg';

/** The statement names of this process, by text: the same text is the same prepared statement on every connection. */
const names = new Map<string, string>();

/** The name of a statement text (`bench_<n>`, the n-th text this process sent). */
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `bench_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A `pg` client that sends every statement with parameters as a named (prepared) statement,
 * named by its text, through `pg`'s documented `{ name, text, values }` form: each connection
 * plans a statement once and reuses the plan, as the API does on a direct connection
 * (`openDatabase`'s `preparedStatements`). It is what a developer adds to a hand-written app to
 * prepare its statements (given to `pg.Pool` as `Client`, under Kysely too, which calls
 * `query(text, values)`), so the hand-written route and the limit are measured with the same
 * planning work as the API. `npm run bench -- --unnamed-statements` sends them unnamed, as the
 * API's servers then do.
 *
 * The bench's statement texts are few and fixed (a text depends on the filters and sort a
 * request has, never on their values), so the names are not bounded.
 */
export class NamedStatementsClient extends pg.Client {
  // pg's overloads are many; a text with parameters is named, every other call goes through unchanged.
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const named = process.env.BENCH_UNNAMED_STATEMENTS !== '1' && typeof text === 'string' && Array.isArray(values) && values.length > 0;
    const forwarded = named ? [{ name: nameOf(text as string), text, values }, ...(callback === undefined ? [] : [callback])] : args;
    return (pg.Client.prototype.query as (...a: unknown[]) => never).apply(this, forwarded);
  }
}
