import type { CompiledQuery, QueryResult } from 'kysely';
import type { ExecutedQuery } from './panel-database-types.js';

/**
 * Who listens to one database's statements (`PanelDatabase.onQuery`: the census, the tests, an
 * app's tracing), told each statement's text, parameters, duration and whether it failed. A
 * statement is timed only while someone listens: with no listener it runs with no clock read and
 * no promise more (Kysely's own `log`, which this replaces, wrapped every statement in three).
 */
export class QueryListeners {
  readonly #listeners = new Set<(query: ExecutedQuery) => void>();

  /** Adds a listener; the function returned removes it. */
  add(listener: (query: ExecutedQuery) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Runs `execute` (the statement `query`), telling the listeners, if any, what ran. */
  observe<R>(query: CompiledQuery, execute: () => Promise<QueryResult<R>>): Promise<QueryResult<R>> {
    if (this.#listeners.size === 0) return execute();
    const start = performance.now();
    return execute().then(
      (result) => {
        this.#tell(query, start, false);
        return result;
      },
      (error: unknown) => {
        this.#tell(query, start, true);
        throw error;
      },
    );
  }

  /** `observe` for a statement read in chunks: told once, when it ends. */
  async *observeStream<R>(query: CompiledQuery, stream: () => AsyncIterableIterator<QueryResult<R>>): AsyncIterableIterator<QueryResult<R>> {
    if (this.#listeners.size === 0) return yield* stream();
    const start = performance.now();
    try {
      yield* stream();
    } catch (error) {
      this.#tell(query, start, true);
      throw error;
    }
    this.#tell(query, start, false);
  }

  #tell(query: CompiledQuery, start: number, failed: boolean): void {
    const executed: ExecutedQuery = { sql: query.sql, parameters: query.parameters, durationMillis: performance.now() - start, failed };
    for (const listener of this.#listeners) listener(executed);
  }
}
