import { Transaction, type ControlledTransaction, type DatabaseConnection, type Kysely, type KyselyProps } from 'kysely';

/**
 * A driver for the lazy transaction's `Transaction` object: it never opens connections of its own.
 *
 * Why a driver of our own and a cast over `KyselyProps` (Kysely 0.28): a hook must get a real
 * `Transaction` (so that `isTransaction` is true and a nested `transaction()` is refused, as in
 * any transaction Kysely hands out), and Kysely makes one only eagerly (`transaction()`,
 * `startTransaction()` begin at once) or from its `KyselyProps`, which it does not export as a
 * public constructor argument and which require a driver. The executor given here provides
 * every query's connection (from the transaction begun at the first query), so no query reaches
 * the driver; what could (`startTransaction()` on the hook's `db`) meets `acquireConnection`,
 * which refuses. `records-write-statements.test.ts` (core) holds the
 * behaviour (no begin for a hook that runs no query; one transaction once it does).
 */
const noDriver = {
  init: async () => {},
  acquireConnection: async (): Promise<DatabaseConnection> => {
    throw new Error('A lazy transaction acquires its connection through its builder.');
  },
  beginTransaction: async () => {},
  commitTransaction: async () => {},
  rollbackTransaction: async () => {},
  releaseConnection: async () => {},
  destroy: async () => {},
};

/**
 * A transaction that begins when its first query runs, not before: `trx` is a Kysely
 * `Transaction` to hand to code that may or may not query the database (a resource's
 * `validate` hook). A hook that never runs a query through it costs no `begin` and no
 * `commit`, and the write after it can be one autocommitted statement; once a query ran,
 * `begun` is true and every later statement of the write runs on `trx`, ended by `finish`.
 *
 * @example
 * const lazy = new LazyTransaction(db);
 * await hook({ db: lazy.trx });
 * const row = await lazy.finish(async (db) => insert(db)); // on lazy.trx if the hook queried, else on db
 *
 * Made on a transaction already (a write the API runs under `If-Match` or `Idempotency-Key`),
 * it begins nothing: the hook and the write run in that transaction, which its owner ends.
 */
export class LazyTransaction {
  readonly #db: Kysely<any>;
  #opening: Promise<ControlledTransaction<any>> | undefined;
  #trx: Transaction<any> | undefined;
  /** The caller's transaction, when `db` is one already: everything runs in it, and its owner commits. */
  readonly #outer: Transaction<any> | undefined;

  constructor(db: Kysely<any>) {
    this.#db = db;
    this.#outer = db.isTransaction ? (db as Transaction<any>) : undefined;
  }

  /** The transaction as the hook sees it (made on first use); its first query begins the transaction. */
  get trx(): Transaction<any> {
    if (this.#outer) return this.#outer;
    if (this.#trx) return this.#trx;
    const executor = this.#db.getExecutor().withConnectionProvider({
      provideConnection: async (consumer) => (await this.#open()).getExecutor().provideConnection(consumer),
    });
    // `Transaction` refuses transaction(), connection() and destroy() itself; no query reaches the driver (see `noDriver`).
    const props = { config: {}, driver: noDriver, dialect: {}, executor } as unknown as KyselyProps;
    this.#trx = new Transaction<any>(props);
    return this.#trx;
  }

  /** Whether a query has begun the transaction. */
  get begun(): boolean {
    return this.#outer !== undefined || this.#opening !== undefined;
  }

  /** Begins the transaction now, if no query has (for a write of several statements). */
  async begin(): Promise<void> {
    if (!this.#outer) await this.#open();
  }

  #open(): Promise<ControlledTransaction<any>> {
    this.#opening ??= this.#db.startTransaction().execute();
    return this.#opening;
  }

  /**
   * Runs the rest of the write: on the transaction, then commits, if it has begun (rolled
   * back if `work` throws); else on the database itself, with no transaction.
   */
  async finish<T>(work: (db: Kysely<any>) => Promise<T>): Promise<T> {
    if (this.#outer || !this.#opening) return work(this.#db);
    const trx = await this.#opening;
    let result: T;
    try {
      result = await work(trx);
    } catch (error) {
      // The write's error is the one to answer; a rollback that fails too (a lost connection) still releases the connection.
      await trx.rollback().execute().catch(() => undefined);
      throw error;
    }
    await trx.commit().execute();
    return result;
  }

  /** Rolls back the transaction if it has begun and is not over (the write was refused, or its commit failed). */
  async abandon(): Promise<void> {
    if (!this.#opening) return;
    const trx = await this.#opening.catch(() => undefined);
    if (trx && !trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute().catch(() => undefined);
  }
}
