import { createRequire } from 'node:module';
import pg from 'pg';

/** pg's own mapping of a parameter to its wire text (dates, buffers, arrays, JSON), as its queries bind them. */
const prepareValue = (createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown }).prepareValue;

/** The protocol writes of a pg connection that `PrefixedQuery` uses (pg's own, untyped in `@types/pg`). */
export interface ProtocolConnection {
  readonly stream: { cork?(): void; uncork?(): void };
  /** The names pg believes this connection has prepared, with their texts. */
  readonly parsedStatements: Record<string, string | undefined>;
  parse(query: { text: string }): void;
  bind(config: object): void;
  execute(config: object): void;
}

/** A statement held back by the pool's client: `begin`, or a transaction's last statement (`sentWithCommit`). */
export interface HeldStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  /** The name this connection prepared the statement under already: it is bound, not parsed again. */
  readonly name?: string;
}

/** The held `begin`. */
export const BEGIN: HeldStatement = Object.freeze({ text: 'begin', values: Object.freeze([]) });

/** What `begin` answers when it is held back for the statement after it (Kysely reads nothing of it). */
export const HELD_BEGIN = Object.freeze({ command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] });

/** What a statement held for the commit answers at once (`sentWithCommit`: the caller reads nothing of it). */
export const HELD_FOR_COMMIT = Object.freeze({ command: 'HELD', rowCount: null, oid: 0, rows: [], fields: [] });

/**
 * A statement with a held one in front of it, in one write: Parse, Bind and Execute of the held
 * statement (unnamed, or Bind and Execute of one the connection has prepared; no Describe: its
 * answer is not read) with no Sync between, then the
 * statement's own messages and its Sync. PostgreSQL runs both before it answers, so the held
 * statement costs no round trip of its own. An error in the held statement skips the other, and
 * either error is the query's. Two uses:
 *
 * - `begin` in front of a transaction's first statement (Npgsql prepends its `BEGIN` the same way);
 * - a transaction's last statement (`sentWithCommit`) in front of `commit`: its error leaves the
 *   transaction aborted for the caller's `rollback`.
 */
export class PrefixedQuery extends pg.Query {
  readonly #prefix: HeldStatement;
  /** The statement's name when this query sends its Parse: pg marks it parsed on the prefix's ParseComplete. */
  #parsing: string | undefined;

  constructor(prefix: HeldStatement, statement: pg.QueryConfig, callback: (error: Error | undefined, result: unknown) => void) {
    super(statement, callback as never);
    this.#prefix = prefix;
  }

  // A property, as `@types/pg` declares pg's own.
  override submit = (connection: unknown): Error | null => {
    const protocol = connection as ProtocolConnection;
    const name = (this as { name?: string }).name;
    this.#parsing = name !== undefined && protocol.parsedStatements[name] === undefined ? name : undefined;
    protocol.stream.cork?.();
    try {
      const { name: prepared } = this.#prefix;
      if (prepared === undefined) protocol.parse({ text: this.#prefix.text });
      protocol.bind({ ...(prepared === undefined ? {} : { statement: prepared }), values: this.#prefix.values, valueMapper: prepareValue });
      protocol.execute({});
      return (pg.Query.prototype.submit as unknown as (c: unknown) => Error | null).call(this, connection);
    } finally {
      protocol.stream.uncork?.();
    }
  };

  /**
   * pg records a named statement as parsed on the first ParseComplete its query receives, which
   * is the prefix's. When the query fails, the statement's own Parse may have failed (or been
   * skipped after the prefix's error): the name is forgotten, so its next use parses it again.
   */
  handleError(error: Error, connection: unknown): void {
    if (this.#parsing !== undefined) delete (connection as ProtocolConnection).parsedStatements[this.#parsing];
    (pg.Query.prototype as unknown as { handleError(e: Error, c: unknown): void }).handleError.call(this, error, connection);
  }
}
