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
  /** Named (prepared) statements, unless the app turned them off (`openDatabase({ preparedStatements: false })`). */
  readonly preparedStatements?: PreparedStatementNames | undefined;
}

type QueryArguments = Parameters<pg.Client['query']>;

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
  readonly #names = new Map<string, string>();
  readonly max: number;
  readonly connections: PreparedConnections;

  constructor(max: number, connections: PreparedConnections = 'all') {
    this.max = max;
    this.connections = connections;
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

/** An address as PostgreSQL's `inet_client_addr()` writes it: Node's IPv4-mapped IPv6 form without its prefix. */
const plainAddress = (address: string | null | undefined) => (address ?? '').replace(/^::ffff:/, '');

/**
 * Whether PostgreSQL sees this connection as it is: the client address and port the server
 * reports are this socket's own. Behind a pooler (PgBouncer, a cloud proxy) the server sees the
 * pooler's socket, and through NAT another address or port; a Unix socket has neither. Only a
 * connection that passes may send named statements by default.
 */
async function seenDirectly(client: pg.Client): Promise<boolean> {
  const socket = (client as unknown as { connection?: { stream?: { localAddress?: string; localPort?: number } } }).connection?.stream;
  if (socket?.localPort === undefined) return false;
  const { rows } = await (pg.Client.prototype.query as (text: string) => Promise<pg.QueryResult<{ address: string | null; port: number | null }>>).call(
    client,
    'select host(inet_client_addr()) as address, inet_client_port() as port',
  );
  const seen = rows[0];
  return seen !== undefined && seen.port === socket.localPort && plainAddress(seen.address) === plainAddress(socket.localAddress);
}

/** What `begin` answers when it is held back for the statement after it (Kysely reads nothing of it). */
const HELD_BEGIN = Object.freeze({ command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] });

/** What a statement held for the commit answers at once (`sentWithCommit`: the caller reads nothing of it). */
const HELD_FOR_COMMIT = Object.freeze({ command: 'HELD', rowCount: null, oid: 0, rows: [], fields: [] });

/** The protocol writes of a pg connection that `PrefixedQuery` uses (pg's own, untyped in `@types/pg`). */
interface ProtocolConnection {
  readonly stream: { cork?(): void; uncork?(): void };
  /** The names pg believes this connection has prepared, with their texts. */
  readonly parsedStatements: Record<string, string | undefined>;
  parse(query: { text: string }): void;
  bind(config: object): void;
  execute(config: object): void;
}

/** A statement held back by the pool's client: `begin`, or a transaction's last statement (`sentWithCommit`). */
interface HeldStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  /** The name this connection prepared the statement under already: it is bound, not parsed again. */
  readonly name?: string;
}

const BEGIN: HeldStatement = Object.freeze({ text: 'begin', values: Object.freeze([]) });

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
class PrefixedQuery extends pg.Query {
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

/**
 * A pg client that remembers why its last statement failed, and closes its connection when a
 * statement gets no answer within the query timeout. pg only stops waiting; the connection would
 * stay busy with the lost statement, and every later statement on it would queue behind it.
 * Ended, it leaves the pool when released, and the next query opens a fresh one.
 */
class PanelPoolClient extends pg.Client {
  /** The error of the statement running or last run, when it failed (cleared when a statement starts). */
  lastQueryError: unknown;
  /** The process's statement names, when this connection sends statements named. */
  #prepared: PreparedStatementNames | undefined;
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
    this.#prepared = config.panelPreparedStatements?.connections === 'all' ? config.panelPreparedStatements : undefined;
    this.#directOnly = config.panelPreparedStatements?.connections === 'direct' ? config.panelPreparedStatements : undefined;
  }

  /** The process's names when they may serve only a connection PostgreSQL sees directly: set as `#prepared` once this one is. */
  readonly #directOnly: PreparedStatementNames | undefined;

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
    if (await seenDirectly(this).catch(() => false)) this.#prepared = this.#directOnly;
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
      const shared = this.#sharedName(text as string, values as unknown[]);
      const name = shared === undefined ? undefined : this.#nameOn(shared);
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
    const shared = typeof text === 'string' && Array.isArray(values) ? this.#sharedName(text, values) : undefined;
    if (shared !== undefined && args.length === 2) return this.#sendNamed(shared, this.#nameOn(shared), text as string, values as unknown[]) as never;
    const send = (name: string | undefined) =>
      (pg.Client.prototype.query as (...a: QueryArguments) => unknown).apply(this, (name === undefined ? args : [{ name, text, values }, ...args.slice(2)]) as QueryArguments);
    const result = send(shared === undefined ? undefined : this.#nameOn(shared));
    if (result instanceof Promise) return result.catch((error: unknown) => this.#afterFailure(shared, error, (fresh) => send(fresh) as Promise<unknown>)) as never;
    return result as never;
  }

  /**
   * Sends `text` under `name` (a `query(text, values)` call, the form Kysely uses). The query is
   * built from the text, then named: pg copies a config object property by property on every
   * query, which costs more than the rest of the call.
   */
  #sendNamed(shared: string, name: string, text: string, values: unknown[]): Promise<unknown> {
    return new Promise<unknown>((resolve) => {
      const query = new pg.Query(text, values, ((error: Error | undefined, result: unknown) => {
        resolve(error ? this.#afterFailure(shared, error, (fresh) => (pg.Client.prototype.query as (config: pg.QueryConfig) => Promise<unknown>).call(this, { name: fresh, text, values })) : result);
      }) as never);
      (query as unknown as { name: string }).name = name;
      (pg.Client.prototype.query as (q: unknown) => unknown).call(this, query);
    });
  }

  /**
   * After a statement failed: when PostgreSQL refused the plan of a named one (`stalePlan`), it
   * is prepared again under a name of this connection's and sent once more by `resend`. Outside
   * a transaction that answers; in one, PostgreSQL has aborted the transaction, so the retry
   * fails (25P02) and the refusal stands (the database briefly unavailable: a retry of the
   * request works). Any other error is noted and is the answer.
   */
  #afterFailure(shared: string | undefined, error: unknown, resend: (name: string) => Promise<unknown>): Promise<unknown> {
    if (shared === undefined || !stalePlan(error)) return Promise.reject(this.#failure(error));
    return resend(this.#renameStale(shared)).catch((retried: unknown) => this.#failed((retried as { code?: unknown } | null)?.code === '25P02' ? error : retried));
  }

  /** The process's name of a statement with parameters, when this connection names statements. */
  #sharedName(text: string, values: readonly unknown[]): string | undefined {
    return this.#prepared !== undefined && values.length > 0 ? this.#prepared.nameOf(text) : undefined;
  }

  /** The name this connection prepares a statement under: the process's, or its own after a refused plan. */
  #nameOn(shared: string): string {
    return this.#renamed.get(shared) ?? shared;
  }

  /** A fresh name of this connection's for a statement whose plan PostgreSQL refused (`stalePlan`). */
  #renameStale(shared: string): string {
    this.#renames += 1;
    const fresh = `${shared}_${this.#renames}`;
    this.#renamed.set(shared, fresh);
    return fresh;
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
    const shared = this.#sharedName(text, values);
    if (shared === undefined) return this.#sendPrefixed(BEGIN, { text, values });
    // A refused plan aborts the transaction begun with it: the refusal stands (as for any
    // statement in a transaction), and the connection's next use prepares it under a new name.
    return this.#sendPrefixed(BEGIN, { name: this.#nameOn(shared), text, values }, (error) => {
      if (stalePlan(error)) this.#renameStale(shared);
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
