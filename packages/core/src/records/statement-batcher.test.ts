import { describe, expect, it } from 'vitest';
import { StatementBatcher, statementKey } from './statement-batcher.js';

/** A statement whose runs the test finishes by hand, in order. */
function manualStatement() {
  const runs: { resolve: (value: number) => void; reject: (reason: unknown) => void }[] = [];
  const execute = () => new Promise<number>((resolve, reject) => runs.push({ resolve, reject }));
  return { runs, execute };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatcher', () => {
  it('runs a statement at once for the first request', async () => {
    const batcher = new StatementBatcher();
    const statement = manualStatement();
    const answer = batcher.run('count', statement.execute);
    expect(statement.runs).toHaveLength(1);
    statement.runs[0]!.resolve(7);
    expect(await answer).toBe(7);
    expect(batcher.running).toBe(0);
  });

  it('never gives a request the answer of a run that started before it arrived: it waits for the next run', async () => {
    const batcher = new StatementBatcher();
    const statement = manualStatement();
    const first = batcher.run('count', statement.execute);
    const second = batcher.run('count', statement.execute);
    expect(statement.runs).toHaveLength(1);
    statement.runs[0]!.resolve(1);
    expect(await first).toBe(1);
    await tick();
    expect(statement.runs).toHaveLength(2);
    statement.runs[1]!.resolve(2);
    expect(await second).toBe(2);
  });

  it('serves every request that arrived during one run with the next single run', async () => {
    const batcher = new StatementBatcher();
    const statement = manualStatement();
    const first = batcher.run('count', statement.execute);
    const waiting = [1, 2, 3, 4].map(() => batcher.run('count', statement.execute));
    statement.runs[0]!.resolve(10);
    await first;
    await tick();
    statement.runs[1]!.resolve(11);
    expect(await Promise.all(waiting)).toEqual([11, 11, 11, 11]);
    expect(statement.runs).toHaveLength(2);
    expect(batcher.running).toBe(0);
  });

  it('never shares between different keys (another scope, other parameters)', async () => {
    const batcher = new StatementBatcher();
    const a = manualStatement();
    const b = manualStatement();
    const answers = [batcher.run('count where user = 1', a.execute), batcher.run('count where user = 2', b.execute)];
    expect([a.runs.length, b.runs.length]).toEqual([1, 1]);
    a.runs[0]!.resolve(1);
    b.runs[0]!.resolve(2);
    expect(await Promise.all(answers)).toEqual([1, 2]);
  });

  it('rejects the requests of a failed run and runs the next batch anew', async () => {
    const batcher = new StatementBatcher();
    const statement = manualStatement();
    const first = batcher.run('count', statement.execute);
    const second = batcher.run('count', statement.execute);
    statement.runs[0]!.reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await tick();
    statement.runs[1]!.reject(new Error('still down'));
    await expect(second).rejects.toThrow('still down');
    const third = batcher.run('count', statement.execute);
    statement.runs[2]!.resolve(3);
    expect(await third).toBe(3);
    expect(batcher.running).toBe(0);
  });
});

describe('statementKey', () => {
  it('names the SQL and its parameters: the same statement with other parameters is another key', () => {
    expect(statementKey('select count(*) from "t" where "a" = $1', [1])).toBe(statementKey('select count(*) from "t" where "a" = $1', [1]));
    expect(statementKey('select count(*) from "t" where "a" = $1', [1])).not.toBe(statementKey('select count(*) from "t" where "a" = $1', [2]));
    expect(statementKey('select count(*) from "t" where "a" = $1', [1])).not.toBe(statementKey('select count(*) from "t" where "a" = $1', ['1']));
    expect(statementKey('select count(*) from "t"', [])).not.toBe(statementKey('select count(*) from "u"', []));
  });

  it('keys a Date by its instant, never as the string it prints as', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(statementKey('q', [at])).toBe(statementKey('q', [new Date(at.getTime())]));
    expect(statementKey('q', [at])).not.toBe(statementKey('q', [at.toISOString()]));
  });

  it('gives no key to a statement with another kind of parameter (a bigint, a Buffer, an array): it runs alone', () => {
    expect(statementKey('q', [1n])).toBeUndefined();
    expect(statementKey('q', [Buffer.from('x')])).toBeUndefined();
    expect(statementKey('q', [[1, 2]])).toBeUndefined();
    expect(statementKey('q', [Number.NaN])).toBeUndefined();
  });
});
