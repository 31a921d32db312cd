import { createRequire } from 'node:module';
import pg from 'pg';
import { PANEL_TYPE_PARSERS } from './type-parsers.js';
import type { DatabaseTimeouts } from './database-timeouts.js';
import type { DatabaseLogger } from './database-logger.js';
import { databaseUnavailableReason } from './database-unavailable.js';
import { SENT_WITH_COMMIT } from './sent-with-commit.js';

/** pg's own mapping of a parameter to its wire text (dates, buffers, arrays, JSON), as its queries bind them. */
const prepareValue = (createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown }).prepareValue;

/** What the PostgreSQL pool is built from (the checked options of `openDatabase`). */
export interface PostgresPoolOptions {
  readonly url: string;
  readonly schema: string | undefined;
  readonly maxConnections: number;
  readonly applicationName: string;
  readonly timeouts: DatabaseTimeouts;
  readonly logger: DatabaseLogger;
  /** Named (prepared) statements, when the app opted in (`openDatabase({ preparedStatements })`). */
  readonly preparedStatements?: PreparedStatementNames | undefined;
}

type QueryArguments = Parameters<pg.Client['query']>;

/** The most statement texts named by default: each connection prepares at most this many. */
export const DEFAULT_MAX_PREPARED_STATEMENTS = 256;

/**
 * The names of the statements a process prepares: one per statement text, for the first `max`
 * texts with parameters that it sends; later texts are sent unnamed, as without the option. A
 * connection prepares a named statement on its first use and reuses its plan after, so it holds
 * at most `max` of them, whatever clients send (a list's text depends on which filters it has,
 * not on their values).
 */
export class PreparedStatementNames {
  readonly #names = new Map<string, string>();
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** The name of a statement text, or undefined when it is sent unnamed. */
  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.max) {
      name = `panel_${this.#names.size + 1}`;
      this.#names.set(text, name);
    }
    return name;
  }
}

/** `cached plan must not change result type`: a table's columns changed under a prepared `select *` (a migration). */
function stalePlan(error: unknown): boolean {
  const { code, routine } = (error ?? {}) as { code?: unknown; routine?: unknown };
  return code === '0A000' && routine === 'RevalidateCachedQuery';
}

/** What `begin` answers when it is held back for the statement after it (Kysely reads nothing of it). */
const HELD_BEGIN = Object.freeze({ command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] });

/** What a statement held for the commit answers at once (`sentWithCommit`: the caller reads nothing of it). */
const HELD_FOR_COMMIT = Object.freeze({ command: 'HELD', rowCount: null, oid: 0, rows: [], fields: [] });

/** The protocol writes of a pg connection that `PrefixedQuery` uses (pg's own, untyped in `@types/pg`). */
interface ProtocolConnection {
  readonly stream: { cork?(): void; uncork?(): void };
  parse(query: { text: string }): void;
  bind(config: object): void;
  execute(config: object): void;
}

/** A statement held back by the pool's client: `begin`, or a transaction's last statement (`sentWithCommit`). */
interface HeldStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

const BEGIN: HeldStatement = Object.freeze({ text: 'begin', values: Object.freeze([]) });

/**
 * A statement with a held one in front of it, in one write: Parse, Bind and Execute of the held
 * statement (unnamed, no Describe: its answer is not read) with no Sync between, then the
 * statement's own messages and its Sync. PostgreSQL runs both before it answers, so the held
 * statement costs no round trip of its own. An error in the held statement skips the other, and
 * either error is the query's. Two uses:
 *
 * - `begin` in front of a transaction's first statement (Npgsql prepends its `BEGIN` the same way);
 * - a transaction's last statement (`sentWithCommit`) in front of `commit`: its error leaves the
 *   transaction aborted for the caller's `rollback`.
 */
class PrefixedQuery extends pg.Query {
  readonly #prefix: HeldStatement;

  constructor(prefix: HeldStatement, statement: pg.QueryConfig, callback: (error: Error | undefined, result: unknown) => void) {
    super(statement, callback as never);
    this.#prefix = prefix;
  }

  // A property, as `@types/pg` declares pg's own.
  override submit = (connection: unknown): Error | null => {
    const protocol = connection as ProtocolConnection;
    protocol.stream.cork?.();
    try {
      protocol.parse({ text: this.#prefix.text });
      protocol.bind({ values: this.#prefix.values, valueMapper: prepareValue });
      protocol.execute({});
      return (pg.Query.prototype.submit as unknown as (c: unknown) => Error | null).call(this, connection);
    } finally {
      protocol.stream.uncork?.();
    }
  };
}

/**
 * A pg client that remembers why its last statement failed, and closes its connection when a
 * statement gets no answer within the query timeout. pg only stops waiting; the connection would
 * stay busy with the lost statement, and every later statement on it would queue behind it.
 * Ended, it leaves the pool when released, and the next query opens a fresh one.
 */
class PanelPoolClient extends pg.Client {
  /** The error of the statement running or last run, when it failed (cleared when a statement starts). */
  lastQueryError: unknown;
  readonly #prepared: PreparedStatementNames | undefined;
  /**
   * The names this connection prepared a statement again under, after PostgreSQL refused the
   * plan of the process's name (a migration changed the columns under a prepared `select *`).
   * The refused statement stays on the server, unused, until the connection closes.
   */
  readonly #renamed = new Map<string, string>();
  #renames = 0;
  /** A `begin` the caller was answered for but that is not sent yet: it goes with the next statement. */
  #heldBegin = false;
  /** A transaction's last statement the caller was answered for, not sent yet: it goes in front of `commit` (`PrefixedQuery`). */
  #heldForCommit: HeldStatement | undefined;

  constructor(config: pg.ClientConfig & { panelPreparedStatements?: PreparedStatementNames }) {
    super(config);
    this.#prepared = config.panelPreparedStatements;
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
      // Held back, and sent in front of the transaction's commit (`PrefixedQuery`).
      this.#heldForCommit = { text: text as string, values: values as unknown[] };
      return Promise.resolve(HELD_FOR_COMMIT) as never;
    }
    if (plain && text === 'begin' && (values === undefined || (values as unknown[]).length === 0)) {
      // Held back, and sent in front of the transaction's first statement (`PrefixedQuery`).
      this.#heldBegin = true;
      return Promise.resolve(HELD_BEGIN) as never;
    }
    const shared = this.#prepared && typeof text === 'string' && Array.isArray(values) && values.length > 0 ? this.#prepared.nameOf(text) : undefined;
    const send = (name: string | undefined) =>
      (pg.Client.prototype.query as (...a: QueryArguments) => unknown).apply(this, (name === undefined ? args : [{ name, text, values }, ...args.slice(2)]) as QueryArguments);
    const name = shared === undefined ? undefined : (this.#renamed.get(shared) ?? shared);
    const result = send(name);
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        if (shared === undefined || !stalePlan(error)) return this.#failed(error);
        // PostgreSQL refused the plan: the statement is prepared again under a name of this
        // connection's, and sent once more. Outside a transaction that answers; in one,
        // PostgreSQL has aborted the transaction, so the retry fails (25P02) and the refusal
        // stands (the database briefly unavailable: a retry of the request works).
        this.#renames += 1;
        const fresh = `${shared}_${this.#renames}`;
        this.#renamed.set(shared, fresh);
        return (send(fresh) as Promise<unknown>).catch((retried: unknown) => this.#failed((retried as { code?: unknown } | null)?.code === '25P02' ? error : retried));
      }) as never;
    }
    return result as never;
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
   * end. A text with parameters and no name goes as a `PrefixedQuery` behind `begin`, in one
   * round trip. Anything else (a named statement, one without parameters, another form) is sent
   * after `begin` as before, so it always runs in the transaction.
   */
  #afterHeldBegin(text: string | undefined, values: unknown[], args: unknown[]): Promise<unknown> {
    this.#heldBegin = false;
    if (values.length === 0 && (text === 'commit' || text === 'rollback')) return Promise.resolve({ ...HELD_BEGIN, command: text.toUpperCase() });
    if (text === undefined || values.length === 0 || (this.#prepared !== undefined && this.#prepared.nameOf(text) !== undefined)) return this.#sendFirst(BEGIN, args);
    return this.#sendPrefixed(BEGIN, { text, values });
  }

  /** Sends `statement` with `prefix` in front of it, in one round trip (`PrefixedQuery`); answers the statement's result. */
  #sendPrefixed(prefix: HeldStatement, statement: pg.QueryConfig): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const query = new PrefixedQuery(prefix, statement, (error, result) => (error ? reject(error) : resolve(Array.isArray(result) ? result.at(-1) : result)));
      (pg.Client.prototype.query as (q: unknown) => unknown).call(this, query);
    }).catch((error: unknown) => this.#failed(error));
  }

  /** Sends `held` on its own, then the call `args` as any other; an error of `held` is the call's. */
  #sendFirst(held: HeldStatement, args: unknown[]): Promise<unknown> {
    const sent = (pg.Client.prototype.query as (text: string, values: readonly unknown[]) => Promise<unknown>).call(this, held.text, held.values);
    return sent.then(() => this.query(...args), (error: unknown) => this.#failed(error));
  }

  #failed(error: unknown): never {
    this.lastQueryError = error;
    if ((error as Error | null)?.message === 'Query read timeout') this.#abandon();
    throw error;
  }

  #abandon(): void {
    // end() marks the client as ending at once (so the pool drops it on release); the socket
    // is destroyed rather than left to a polite close the frozen peer would never answer.
    this.end().catch(() => undefined);
    (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}

/** The fields of a driver error worth a log line; never the statement or its values. */
function describe(error: unknown): Record<string, unknown> {
  const { code, severity, message } = (error ?? {}) as { code?: unknown; severity?: unknown; message?: unknown };
  return { code: typeof code === 'string' ? code : undefined, severity, message };
}

/**
 * Creates the PostgreSQL pool with its timeouts, and listens to its `'error'` events and every
 * client's: a connection that PostgreSQL closes (a restart, a failover,
 * `pg_terminate_backend`, an idle timeout) or that the network drops is logged once, with its
 * PostgreSQL code, and leaves the pool; the process carries on and the next request connects
 * again. Without these listeners Node ends the process on the first such event.
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const { timeouts, logger } = options;
  // One line per failed connection: PostgreSQL's FATAL message (57P01) and the socket's end that follows are one event.
  const logged = new WeakSet<object>();
  const busy = new WeakSet<object>();
  const report = (error: unknown, client: object) => {
    if (logged.has(client)) return;
    logged.add(client);
    // A busy connection's FATAL message (57P01) went to its statement; the event only says the socket ended.
    const last = (client as PanelPoolClient).lastQueryError;
    const cause = (error as { code?: unknown } | null)?.code === undefined && databaseUnavailableReason(last) !== undefined ? last : error;
    const where = busy.has(client) || cause !== error ? 'busy' : 'idle';
    logger.warn({ ...describe(cause), connection: where }, 'Panel database: a PostgreSQL connection failed and was removed from the pool; the next query opens a new one');
  };
  const pool = new pg.Pool({
    Client: PanelPoolClient as unknown as typeof pg.Client,
    ...(options.preparedStatements ? { panelPreparedStatements: options.preparedStatements } : {}),
    connectionString: options.url,
    max: options.maxConnections,
    application_name: options.applicationName,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    connectionTimeoutMillis: timeouts.connectionTimeoutMillis,
    idleTimeoutMillis: timeouts.idleTimeoutMillis,
    ...(timeouts.statementTimeoutMillis > 0 ? { statement_timeout: timeouts.statementTimeoutMillis } : {}),
    ...(timeouts.queryTimeoutMillis > 0 ? { query_timeout: timeouts.queryTimeoutMillis } : {}),
    // TCP keepalive notices a peer that vanished without closing (a failed-over host, a dropped route).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        PANEL_TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's error reaches both the pool's listener and the client's own: still one line.
  pool.on('error', (error, client) => report(error, client));
  pool.on('connect', (client) => {
    client.on('error', (error) => report(error, client));
  });
  pool.on('acquire', (client) => busy.add(client));
  pool.on('release', (_error, client) => {
    busy.delete(client);
    (client as unknown as PanelPoolClient).dropHeld();
  });
  return pool;
}
