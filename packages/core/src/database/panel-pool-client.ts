import pg from 'pg';
import { SENT_WITH_COMMIT } from './sent-with-commit.js';
import type { PreparedStatementNames } from './prepared-statement-names.js';
import { seenDirectly } from './direct-connection.js';
import { isStalePlan } from './stale-plan.js';
import { BEGIN, HELD_BEGIN, HELD_FOR_COMMIT, PrefixedQuery, type HeldStatement, type ProtocolConnection } from './prefixed-query.js';

type QueryArguments = Parameters<pg.Client['query']>;

/**
 * The pool's client: a pg client that names statements (when the app prepares them, on the
 * connections it may: `PreparedStatementNames`), holds `begin` back for the transaction's first
 * statement and a `sentWithCommit` statement for the commit (`PrefixedQuery`: one round trip
 * each), remembers why its last statement failed, and closes its connection when a statement gets
 * no answer within the query timeout. pg only stops waiting; the connection would stay busy with
 * the lost statement, and every later statement on it would queue behind it. Ended, it leaves the
 * pool when released, and the next query opens a fresh one.
 */
export class PanelPoolClient extends pg.Client {
  /** The error of the statement running or last run, when it failed (cleared when a statement starts). */
  lastQueryError: unknown;
  /** The process's names of statements, when this connection sends them named. */
  #names: PreparedStatementNames | undefined;
  /** The process's names when they may serve only a connection PostgreSQL sees directly: this connection's once it is. */
  readonly #directOnly: PreparedStatementNames | undefined;
  /** A `begin` the caller was answered for but that is not sent yet: it goes with the next statement. */
  #heldBegin = false;
  /** A transaction's last statement the caller was answered for, not sent yet: it goes in front of `commit` (`PrefixedQuery`). */
  #heldForCommit: HeldStatement | undefined;

  constructor(config: pg.ClientConfig & { panelPreparedStatements?: PreparedStatementNames }) {
    super(config);
    const names = config.panelPreparedStatements;
    this.#names = names?.connections === 'all' ? names : undefined;
    this.#directOnly = names?.connections === 'direct' ? names : undefined;
  }

  // pg-pool connects with a callback; a promise for any other caller, as pg's own.
  override connect(callback?: (error: Error) => void): never {
    const connected = (pg.Client.prototype.connect as () => Promise<unknown>).call(this).then(() => this.#checkDirect());
    if (!callback) return connected.then(() => this) as never;
    const done = callback as (error?: Error) => void;
    connected.then(() => done(), (error: Error) => done(error));
    return undefined as never;
  }

  /**
   * Names statements on this connection when the process names them on direct connections
   * only and PostgreSQL sees this one directly (`seenDirectly`). A failed check leaves the
   * connection unnamed: it works as it would behind a pooler.
   */
  async #checkDirect(): Promise<void> {
    if (this.#directOnly === undefined) return;
    if (await seenDirectly(this).catch(() => false)) this.#names = this.#directOnly;
  }

  // The overloads of pg's query() are many; this passes every call through unchanged, but for
  // the name of a statement with parameters when the app prepares statements.
  override query(...args: unknown[]): never {
    this.lastQueryError = undefined;
    const [text, values] = args;
    const plain = typeof text === 'string' && args.length <= 2 && (values === undefined || Array.isArray(values));
    if (this.#heldBegin) return this.#afterHeldBegin(plain ? (text as string) : undefined, (values ?? []) as unknown[], args) as never;
    if (this.#heldForCommit) return this.#afterHeldForCommit(plain ? (text as string) : undefined, (values ?? []) as unknown[], args) as never;
    if (plain && (values as unknown[] | undefined)?.length && (text as string).startsWith(SENT_WITH_COMMIT) && this.#inTransaction()) {
      // Held back, and sent in front of the transaction's commit (`PrefixedQuery`). A named
      // statement is held once this connection has prepared it (its first use runs in place and
      // prepares it), so the held statement is only ever bound: pg's record of what is prepared
      // stays exact whatever fails in the write.
      const name = this.#nameOf(text as string, values as unknown[]);
      if (name === undefined || this.#prepares(name, text as string)) {
        this.#heldForCommit = { text: text as string, values: values as unknown[], ...(name === undefined ? {} : { name }) };
        return Promise.resolve(HELD_FOR_COMMIT) as never;
      }
    }
    if (plain && text === 'begin' && (values === undefined || (values as unknown[]).length === 0)) {
      // Held back, and sent in front of the transaction's first statement (`PrefixedQuery`).
      this.#heldBegin = true;
      return Promise.resolve(HELD_BEGIN) as never;
    }
    const name = typeof text === 'string' && Array.isArray(values) ? this.#nameOf(text, values) : undefined;
    if (name !== undefined && args.length === 2) return this.#sendNamed(name, text as string, values as unknown[]) as never;
    const send = (name: string | undefined) =>
      (pg.Client.prototype.query as (...a: QueryArguments) => unknown).apply(this, (name === undefined ? args : [{ name, text, values }, ...args.slice(2)]) as QueryArguments);
    const result = send(name);
    if (result instanceof Promise) return result.catch((error: unknown) => this.#afterFailure(text as string, name, error, (fresh) => send(fresh) as Promise<unknown>)) as never;
    return result as never;
  }

  /**
   * Sends `text` under `name` (a `query(text, values)` call, the form Kysely uses). The query is
   * built from the text, then named: pg copies a config object property by property on every
   * query, which costs more than the rest of the call.
   */
  #sendNamed(name: string, text: string, values: unknown[]): Promise<unknown> {
    return new Promise<unknown>((resolve) => {
      const query = new pg.Query(text, values, ((error: Error | undefined, result: unknown) => {
        resolve(error ? this.#afterFailure(text, name, error, (fresh) => (pg.Client.prototype.query as (config: pg.QueryConfig) => Promise<unknown>).call(this, { name: fresh, text, values })) : result);
      }) as never);
      (query as unknown as { name: string }).name = name;
      (pg.Client.prototype.query as (q: unknown) => unknown).call(this, query);
    });
  }

  /** The name `text` is sent under on this connection, or undefined when it is sent unnamed. */
  #nameOf(text: string, values: readonly unknown[]): string | undefined {
    return this.#names !== undefined && values.length > 0 ? this.#names.nameOf(text) : undefined;
  }

  /**
   * After a statement failed: when PostgreSQL refused the plan of a named one (`isStalePlan`), the
   * text gets a fresh name on every connection (`PreparedStatementNames.renameStale`), and
   * `resend` sends it once more under it. Outside a transaction that answers; in one, PostgreSQL
   * has aborted the transaction, so the resend fails (25P02) and the refusal stands: the owner
   * of the transaction runs it again (`retryAfterStalePlan`), on any connection, which prepares
   * the fresh name. Any other error is noted and is the answer.
   */
  #afterFailure(text: string, name: string | undefined, error: unknown, resend: (name: string) => Promise<unknown>): Promise<unknown> {
    if (name === undefined || !isStalePlan(error)) return Promise.reject(this.#failure(error));
    return resend(this.#names!.renameStale(text, name)).catch((retried: unknown) => this.#failed((retried as { code?: unknown } | null)?.code === '25P02' ? error : retried));
  }

  /** Whether this connection has prepared `text` under `name` (pg's own record). */
  #prepares(name: string, text: string): boolean {
    return (this as unknown as { connection: ProtocolConnection }).connection.parsedStatements[name] === text;
  }

  /** Whether the server said, at its last answer, that a transaction is open (pg's `getTransactionStatus`: 'T'). */
  #inTransaction(): boolean {
    return (this as unknown as { getTransactionStatus?(): string | null }).getTransactionStatus?.() === 'T';
  }

  /** Forgets a held `begin` or statement (the client is back in the pool: a transaction never outlives its checkout). */
  dropHeld(): void {
    this.#heldBegin = false;
    this.#heldForCommit = undefined;
  }

  /**
   * The statement after one held for the commit (`text` undefined: another form). `commit`
   * goes as a `PrefixedQuery` after it, in one round trip; `rollback` drops it unsent (the
   * transaction's work is undone either way); anything else sends it first, as before.
   */
  #afterHeldForCommit(text: string | undefined, values: unknown[], args: unknown[]): Promise<unknown> {
    const held = this.#heldForCommit!;
    this.#heldForCommit = undefined;
    if (values.length === 0 && text === 'rollback') return this.query(...args);
    if (values.length === 0 && text === 'commit') return this.#sendPrefixed(held, { text: 'commit', queryMode: 'extended' } as pg.QueryConfig);
    return this.#sendFirst(held, args);
  }

  /**
   * The first statement after a held `begin` (`text` undefined: a call in another form, a
   * config object or a callback). `commit` or `rollback` at once: nothing was sent, nothing to
   * end. A text with parameters goes as a `PrefixedQuery` behind `begin`, in one round trip,
   * under its name when this connection names statements. Anything else (one without
   * parameters, another form) is sent after `begin` as before, so it always runs in the transaction.
   */
  #afterHeldBegin(text: string | undefined, values: unknown[], args: unknown[]): Promise<unknown> {
    this.#heldBegin = false;
    if (values.length === 0 && (text === 'commit' || text === 'rollback')) return Promise.resolve({ ...HELD_BEGIN, command: text.toUpperCase() });
    if (text === undefined || values.length === 0) return this.#sendFirst(BEGIN, args);
    const name = this.#nameOf(text, values);
    if (name === undefined) return this.#sendPrefixed(BEGIN, { text, values });
    // A refused plan aborts the transaction begun with it: the refusal stands (as for any
    // statement in a transaction), and every connection prepares the text under a fresh name.
    return this.#sendPrefixed(BEGIN, { name, text, values }, (error) => {
      if (isStalePlan(error)) this.#names!.renameStale(text, name);
    });
  }

  /** Sends `statement` with `prefix` in front of it, in one round trip (`PrefixedQuery`); answers the statement's result. */
  #sendPrefixed(prefix: HeldStatement, statement: pg.QueryConfig, onError?: (error: unknown) => void): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const query = new PrefixedQuery(prefix, statement, (error, result) => (error ? reject(error) : resolve(Array.isArray(result) ? result.at(-1) : result)));
      (pg.Client.prototype.query as (q: unknown) => unknown).call(this, query);
    }).catch((error: unknown) => {
      onError?.(error);
      return this.#failed(error);
    });
  }

  /** Sends `held` on its own, then the call `args` as any other; an error of `held` is the call's. */
  #sendFirst(held: HeldStatement, args: unknown[]): Promise<unknown> {
    const { name, text, values } = held;
    const sent = (pg.Client.prototype.query as (query: pg.QueryConfig) => Promise<unknown>).call(this, { ...(name === undefined ? {} : { name }), text, values: values as unknown[] });
    return sent.then(() => this.query(...args), (error: unknown) => this.#failed(error));
  }

  #failed(error: unknown): never {
    throw this.#failure(error);
  }

  /** Notes a failed statement's error (a read timeout abandons the connection); the error, to throw. */
  #failure(error: unknown): unknown {
    this.lastQueryError = error;
    if ((error as Error | null)?.message === 'Query read timeout') this.#abandon();
    return error;
  }

  #abandon(): void {
    // end() marks the client as ending at once (so the pool drops it on release); the socket
    // is destroyed rather than left to a polite close the frozen peer would never answer.
    this.end().catch(() => undefined);
    (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}
