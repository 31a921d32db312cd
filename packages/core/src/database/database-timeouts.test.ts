import { describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_TIMEOUTS, normalizeDatabaseTimeouts } from './database-timeouts.js';
import { openDatabase } from './panel-database.js';

describe('database timeouts', () => {
  it('default to connect 5 s, statement 10 s, query 12 s, idle 10 s', () => {
    expect(normalizeDatabaseTimeouts({})).toEqual({ connectionTimeoutMillis: 5_000, statementTimeoutMillis: 10_000, queryTimeoutMillis: 12_000, idleTimeoutMillis: 10_000 });
    expect(DEFAULT_DATABASE_TIMEOUTS.queryTimeoutMillis).toBe(DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMillis + 2_000);
  });

  it('derive the query timeout from the statement timeout (2 s later), and turn it off with it', () => {
    expect(normalizeDatabaseTimeouts({ statementTimeoutMillis: 1_000 }).queryTimeoutMillis).toBe(3_000);
    expect(normalizeDatabaseTimeouts({ statementTimeoutMillis: 0 }).queryTimeoutMillis).toBe(0);
    expect(normalizeDatabaseTimeouts({ statementTimeoutMillis: 0, queryTimeoutMillis: 60_000 }).queryTimeoutMillis).toBe(60_000);
  });

  it('fail at startup, naming the option and the fix, for a value that is not a whole number of milliseconds', async () => {
    for (const [name, value] of [['connectionTimeoutMillis', -1], ['statementTimeoutMillis', 1.5], ['queryTimeoutMillis', '5s'], ['idleTimeoutMillis', 2 ** 31]] as const) {
      expect(() => normalizeDatabaseTimeouts({ [name]: value })).toThrow(`Database ${name} must be a whole number of milliseconds (0 turns it off), instead got ${JSON.stringify(value)}. Fix: set it to a number such as ${DEFAULT_DATABASE_TIMEOUTS[name]}, or leave it out for that default.`);
    }
    await expect(openDatabase({ url: 'postgres://127.0.0.1:1/none', connectionTimeoutMillis: -5 })).rejects.toThrow(/connectionTimeoutMillis must be a whole number/);
  });
});
