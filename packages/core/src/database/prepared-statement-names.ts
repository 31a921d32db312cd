/** The most statement texts named by default: each connection prepares at most this many. */
export const DEFAULT_MAX_PREPARED_STATEMENTS = 256;

/**
 * Which connections send named statements: `direct`, those PostgreSQL sees as they are (the
 * default: a pooler in transaction mode would hand a name prepared on one server connection to
 * another), or `all` (a direct connection known to the app, or PgBouncer 1.21+ with
 * `max_prepared_statements`).
 */
export type PreparedConnections = 'direct' | 'all';

/**
 * The names of the statements a process prepares: one per statement text, for the first `max`
 * texts with parameters that it sends; later texts are sent unnamed, as without the option. A
 * connection prepares a named statement on its first use and reuses its plan after, so it holds
 * at most `max` of them, whatever clients send (a list's text depends on which filters it has,
 * not on their values).
 */
export class PreparedStatementNames {
  /** Each named text's name now, and the name it was first given (a renamed statement's names start with it). */
  readonly #names = new Map<string, { current: string; readonly first: string }>();
  #renames = 0;
  readonly max: number;
  readonly connections: PreparedConnections;

  constructor(max: number, connections: PreparedConnections = 'all') {
    this.max = max;
    this.connections = connections;
  }

  /** The name of a statement text, or undefined when it is sent unnamed. */
  nameOf(text: string): string | undefined {
    const named = this.#names.get(text);
    if (named !== undefined) return named.current;
    if (this.#names.size >= this.max) return undefined;
    const name = `panel_${this.#names.size + 1}`;
    this.#names.set(text, { current: name, first: name });
    return name;
  }

  /**
   * After PostgreSQL refused the plan of `text` prepared under `refused` (a migration changed its
   * result: `isStalePlan`): a fresh name for the text, from now on on every connection, which
   * each prepares on its next use, with the columns as they are now. A statement prepared under
   * the refused name stays on its connection, unused, until the connection closes. Another
   * connection refused the same plan meanwhile: the name it already gave.
   */
  renameStale(text: string, refused: string): string {
    const named = this.#names.get(text)!;
    if (named.current !== refused) return named.current;
    this.#renames += 1;
    named.current = `${named.first}_${this.#renames}`;
    return named.current;
  }
}
