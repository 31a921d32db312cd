/** One key's state: the statement running now, and the requests waiting for the next run. */
interface Batch {
  readonly running: Promise<unknown>;
  next?: {
    readonly promise: Promise<unknown>;
    readonly execute: () => Promise<unknown>;
    readonly resolve: (value: unknown) => void;
    readonly reject: (reason: unknown) => void;
  };
}

/**
 * The key that names a statement and its parameters for `StatementBatcher`, or undefined when a
 * parameter is not a string, number, boolean, null or Date: two parameters that print alike
 * but are not alike (a Buffer and an array, say) must never share an answer, so such a
 * statement runs alone.
 */
export function statementKey(sql: string, parameters: readonly unknown[]): string | undefined {
  const keyed: unknown[] = [];
  for (const parameter of parameters) {
    if (parameter === null || typeof parameter === 'string' || typeof parameter === 'boolean' || (typeof parameter === 'number' && Number.isFinite(parameter))) keyed.push(parameter);
    else if (parameter instanceof Date) keyed.push({ date: parameter.getTime() });
    else return undefined;
  }
  return `${sql}\u0000${JSON.stringify(keyed)}`;
}

/**
 * Runs identical read statements (same SQL, same parameters) once for every request that asks
 * for one before it starts. A request that arrives while the statement runs does not take
 * that run's answer (it started before the request, so it could miss a write the client saw
 * committed): it waits for the next run, which starts when the current one ends and serves
 * every request that arrived meanwhile. Each answer therefore comes from a statement started
 * after its request arrived, as if the request had run it alone; under load, N identical
 * requests cost about two statements instead of N.
 *
 * An index page's `count(*)` is the statement this is for: the same for every page and every
 * sort of a list seen through the same scope, and on a large table the most expensive part of
 * the page (it visits every row the scope lets through).
 *
 * @example
 * const batcher = new StatementBatcher();
 * const key = statementKey(compiled.sql, compiled.parameters);
 * const result = key === undefined ? await db.executeQuery(compiled) : await batcher.run(key, () => db.executeQuery(compiled));
 */
export class StatementBatcher {
  readonly #batches = new Map<string, Batch>();

  /** The answer of a run of `execute` that started after this call; `key` names the statement and its parameters. */
  run<T>(key: string, execute: () => Promise<T>): Promise<T> {
    const batch = this.#batches.get(key);
    if (!batch) return this.#start(key, execute);
    if (!batch.next) {
      let resolve!: (value: unknown) => void;
      let reject!: (reason: unknown) => void;
      const promise = new Promise<unknown>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      batch.next = { promise, execute, resolve, reject };
    }
    return batch.next.promise as Promise<T>;
  }

  /** How many statements are running (for tests: none once every request has its answer). */
  get running(): number {
    return this.#batches.size;
  }

  #start<T>(key: string, execute: () => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = execute();
    } catch (error) {
      running = Promise.reject(error);
    }
    const batch: Batch = { running };
    this.#batches.set(key, batch);
    const settle = () => {
      this.#batches.delete(key);
      const next = batch.next;
      if (next) this.#start(key, next.execute).then(next.resolve, next.reject);
    };
    running.then(settle, settle);
    return running;
  }
}
