// QueryListeners: what `PanelDatabase.onQuery` listeners are told (the statements through a real
// database are counted by every census test; these are the rules of telling itself).
import { CompiledQuery, type QueryResult } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ExecutedQuery } from './panel-database-types.js';
import { QueryListeners } from './query-listeners.js';

const query = CompiledQuery.raw('select $1', [7]);
const answer: QueryResult<unknown> = { rows: [{ x: 7 }] };

describe('QueryListeners', () => {
  it('tells each listener a statement that started while it listened: its text, parameters, duration and success', async () => {
    const listeners = new QueryListeners();
    const told: ExecutedQuery[] = [];
    const stop = listeners.add((executed) => told.push(executed));
    expect(await listeners.observe(query, async () => answer)).toBe(answer);
    await expect(listeners.observe(query, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(told.map(({ sql, parameters, failed }) => ({ sql, parameters, failed }))).toEqual([
      { sql: 'select $1', parameters: [7], failed: false },
      { sql: 'select $1', parameters: [7], failed: true },
    ]);
    expect(told.every((executed) => executed.durationMillis >= 0)).toBe(true);
    stop();
    await listeners.observe(query, async () => answer);
    expect(told).toHaveLength(2);
  });

  it('without a listener, answers the statement\'s own promise (nothing wraps it)', () => {
    const listeners = new QueryListeners();
    const own = Promise.resolve(answer);
    expect(listeners.observe(query, () => own)).toBe(own);
  });

  it('tells a statement read in chunks once, when it ends', async () => {
    const listeners = new QueryListeners();
    const told: ExecutedQuery[] = [];
    listeners.add((executed) => told.push(executed));
    async function* chunks() {
      yield answer;
      expect(told).toHaveLength(0);
      yield answer;
    }
    const read: unknown[] = [];
    for await (const chunk of listeners.observeStream(query, chunks)) read.push(chunk);
    expect(read).toHaveLength(2);
    expect(told.map((executed) => executed.failed)).toEqual([false]);
  });
});
