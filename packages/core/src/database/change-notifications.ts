import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type pg from 'pg';
import type { DatabaseLogger } from './database-logger.js';
import { DEFAULT_HEARTBEAT_MILLIS, startHeartbeat } from './listener-heartbeat.js';

/** The PostgreSQL channel every process of a panel listens on (`panel_changes`, or `panel_changes:<schema>` with a schema). */
export const CHANGES_CHANNEL = 'panel_changes';

/**
 * One change another process must hear of. `kind` says which cache it concerns: `records` (a
 * write to `table`: the `cached` count strategy drops that table's counts; `after`, when the write's WAL position is known, is the
 * position a recount must see); `token` (a token
 * `id` was created, changed, disabled, enabled or revoked, or its grants changed: a token cache
 * drops it); `grants` (the default permissions list changed). Kinds are open: a subscriber
 * ignores the ones it does not know.
 */
export type Change =
  | { readonly kind: 'records'; readonly table: string; readonly after?: string }
  | { readonly kind: 'token'; readonly id: number }
  | { readonly kind: 'grants' }
  | { readonly kind: string; readonly [key: string]: unknown };

/** What a subscriber is told: each change, and `reset` when changes may have been missed. */
export interface ChangeSubscriber {
  /** A change made by any process, this one included (delivered here at once, to the others by PostgreSQL). */
  change(change: Change): void;
  /**
   * The listening connection was lost and is back (or could not be made): changes made
   * meanwhile were not heard, so everything cached must be dropped.
   */
  reset(): void;
}

/** What the channel is built from. */
export interface ChangeNotificationsOptions {
  /** The primary: `pg_notify` is sent through it. */
  readonly primary: Kysely<any>;
  /** Makes the dedicated listening connection (PostgreSQL); undefined for PGlite, which is one process. */
  readonly connect?: (() => Promise<pg.Client>) | undefined;
  /** The schema of the panel's tables, which names the channel apart from other schemas' panels. */
  readonly schema?: string | undefined;
  readonly logger: DatabaseLogger;
  /** How long to wait before listening again after the connection is lost, in milliseconds. Default 1000. */
  readonly retryMillis?: number;
  /** The listening connection's heartbeat, in milliseconds (`DEFAULT_HEARTBEAT_MILLIS`): a dead connection is noticed within twice this. */
  readonly heartbeatMillis?: number;
}

/**
 * Cross-process notifications over PostgreSQL `LISTEN/NOTIFY`: what lets a cache kept in one
 * process's memory stay right when another process writes. `publish` sends
 * `pg_notify('panel_changes', '{"v":1,"origin":"…","kind":"records","table":"blog_posts"}')`
 * after the write committed; each process holds one connection that `LISTEN`s and calls its
 * subscribers. While that connection is down `live` is false (a cache must not answer from
 * memory then), and when it is back every subscriber is `reset`, since changes made meanwhile
 * were missed. A heartbeat notices a connection that died without closing within 2 seconds
 * (`DEFAULT_HEARTBEAT_MILLIS`). The connection is made on the first `subscribe`, so a process that caches
 * nothing holds none.
 *
 * @example
 * const stop = database.changes.subscribe({ change: (c) => c.kind === 'token' && cache.delete(c.id), reset: () => cache.clear() });
 * await database.changes.publish({ kind: 'token', id: 7 });
 */
export class ChangeNotifications {
  readonly channel: string;
  readonly #options: ChangeNotificationsOptions;
  readonly #origin = randomUUID();
  readonly #subscribers = new Set<ChangeSubscriber>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #live: boolean;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #stopHeartbeat: (() => void) | undefined;

  constructor(options: ChangeNotificationsOptions) {
    this.#options = options;
    this.channel = options.schema ? `${CHANGES_CHANNEL}:${options.schema}` : CHANGES_CHANNEL;
    // In one process (PGlite) every change is delivered in the process: always live.
    this.#live = options.connect === undefined;
  }

  /** Whether changes from other processes are being heard now (a cache may answer from memory only then). */
  get live(): boolean {
    return this.#live;
  }

  /** Adds a subscriber (and starts listening on the first); returns the function that removes it. */
  subscribe(subscriber: ChangeSubscriber): () => void {
    this.#subscribers.add(subscriber);
    this.#listen();
    return () => void this.#subscribers.delete(subscriber);
  }

  /** Resolves once the listening connection is up, or its attempt failed (then `live` is false and a retry is scheduled). */
  async ready(): Promise<void> {
    this.#listen();
    await this.#connecting;
  }

  /**
   * Runs `work` in a transaction on `db` (the primary). Each change it `announce`s is sent with
   * `pg_notify` inside that transaction, so PostgreSQL delivers it to the other processes when,
   * and only if, the transaction commits (a crash between the write and a later `publish`
   * cannot lose it), and to this process's subscribers right after the commit, never before:
   * a read in this process that started before the commit would otherwise cache the old state
   * again.
   *
   * @example
   * await database.changes.transaction(database.db, async (trx, announce) => {
   *   await trx.updateTable('panel_api_tokens').set({ status: 'revoked' }).where('id', '=', 7).execute();
   *   announce({ kind: 'token', id: 7 });
   * });
   */
  async transaction<T>(db: Kysely<any>, work: (trx: Transaction<any>, announce: (change: Change) => void) => Promise<T>): Promise<T> {
    const announced: Change[] = [];
    const result = await db.transaction().execute(async (trx) => {
      const value = await work(trx, (change) => void announced.push(change));
      if (this.#options.connect) {
        for (const change of announced) await sql`select pg_notify(${this.channel}, ${JSON.stringify({ v: 1, origin: this.#origin, ...change })})`.execute(trx);
      }
      return value;
    });
    for (const change of announced) this.#deliver(change);
    return result;
  }

  /** Tells every process (this one at once) of a change; call it after the change committed. */
  async publish(change: Change): Promise<void> {
    this.#deliver(change);
    if (!this.#options.connect) return;
    const payload = JSON.stringify({ v: 1, origin: this.#origin, ...change });
    await sql`select pg_notify(${this.channel}, ${payload})`.execute(this.#options.primary);
  }

  /** Stops listening and forgets the subscribers. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#stopHeartbeat?.();
    this.#subscribers.clear();
    const client = this.#client;
    this.#client = undefined;
    if (client) await endWithin(client, this.#options.heartbeatMillis ?? DEFAULT_HEARTBEAT_MILLIS);
  }

  #deliver(change: Change): void {
    for (const subscriber of this.#subscribers) subscriber.change(change);
  }

  #listen(): void {
    if (!this.#options.connect || this.#client || this.#connecting || this.#retry || this.#closed || this.#subscribers.size === 0) return;
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = undefined;
    });
  }

  async #connect(): Promise<void> {
    let client: pg.Client | undefined;
    try {
      client = await this.#options.connect!();
      client.on('notification', (message) => {
        if (message.channel !== this.channel || !message.payload) return;
        try {
          const { v, origin, ...change } = JSON.parse(message.payload) as { v?: unknown; origin?: unknown; kind?: unknown };
          if (v !== 1 || origin === this.#origin || typeof change.kind !== 'string') return;
          this.#deliver(change as Change);
        } catch {
          // Not ours (someone else's payload on the channel): ignored.
        }
      });
      client.on('error', () => this.#lost(client!));
      client.on('end', () => this.#lost(client!));
      await client.query(`listen "${this.channel.replaceAll('"', '""')}"`);
      if (this.#closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#live = true;
      // Whatever was cached before this connection may have missed changes.
      for (const subscriber of this.#subscribers) subscriber.reset();
      const listening = client;
      const heartbeatMillis = this.#options.heartbeatMillis ?? DEFAULT_HEARTBEAT_MILLIS;
      this.#stopHeartbeat = startHeartbeat(listening, heartbeatMillis, () => this.#dead(listening, heartbeatMillis));
    } catch (error) {
      await client?.end().catch(() => undefined);
      this.#options.logger.warn({ message: (error as Error)?.message }, 'Panel database: cannot listen for changes from other processes; caches answer from the database until it can');
      this.#scheduleRetry();
    }
  }

  /** A listening connection that did not answer its heartbeat: lost (the caches it guards reset), its socket destroyed, and listened again. */
  #dead(client: pg.Client, heartbeatMillis: number): void {
    if (this.#client !== client) return;
    this.#options.logger.warn({ heartbeatMillis }, 'Panel database: the connection listening for changes did not answer its heartbeat; it is dropped and made again');
    this.#lost(client);
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    client.end().catch(() => undefined);
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#stopHeartbeat?.();
    this.#stopHeartbeat = undefined;
    this.#client = undefined;
    this.#live = false;
    for (const subscriber of this.#subscribers) subscriber.reset();
    if (this.#closed) return;
    this.#options.logger.warn({}, 'Panel database: the connection listening for changes was lost; caches answer from the database until it is back');
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#listen();
    }, this.#options.retryMillis ?? 1000);
    this.#retry.unref();
  }
}

/**
 * Ends a listening connection politely (`Terminate`, then the server's close) within `millis`,
 * else destroys its socket: a frozen server never closes its side, and a shutdown must not wait
 * for it (the rule: nothing waits without a timeout).
 */
async function endWithin(client: pg.Client, millis: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    client.end().then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), millis);
    }),
  ]);
  clearTimeout(timer);
  if (!ended) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
