// The rate limit's store option (docs/conditional-requests.md, "Rate limits per credential"): "Any
// `@fastify/rate-limit` store class fits `store` too." The API asks the store directly through the
// store contract of `@fastify/rate-limit` (`incr(key, callback, timeWindow, max)`), built with the
// options that package gives a store class; a store that answers later counts as one that answers
// at once, and a store that fails answers the request as the plugin did (never a count made up).
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary } from './library-app.js';

/** What the stores of this file saw: the options each was built with, and each increment's key, window and max. */
const seen = { options: [] as FastifyRateLimitOptions[], increments: [] as { key: string; timeWindow: number; max: number }[] };

/** A store that counts in a map and calls back at once (as `@fastify/rate-limit`'s in-process store does) or on the next turn. */
function countingStore(later: boolean) {
  return class CountingStore implements FastifyRateLimitStore {
    readonly #counts = new Map<string, number>();
    constructor(options: FastifyRateLimitOptions) {
      seen.options.push(options);
    }
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void {
      seen.increments.push({ key, timeWindow, max });
      const current = (this.#counts.get(key) ?? 0) + 1;
      this.#counts.set(key, current);
      const answer = () => callback(null, { current, ttl: 30_000 });
      if (later) setImmediate(answer);
      else answer();
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`mountPanelApi rateLimit.store: an app's store class [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => {
      await database?.close();
    });

    for (const later of [false, true]) {
      it(`a store that answers ${later ? 'on a later turn' : 'at once'}: built with the window in milliseconds and the max, asked once per request with the credential's key; the 3rd request of 2 is 429 with the headers`, async () => {
        seen.options.length = 0;
        seen.increments.length = 0;
        const { app } = await buildLibraryApp(database, undefined, { rateLimit: { max: 2, windowSeconds: 60, store: countingStore(later) } });
        try {
          expect(seen.options).toHaveLength(1);
          expect(seen.options[0]).toMatchObject({ max: 2, timeWindow: 60_000 });
          const headers = { 'x-user-id': '7' };
          for (const remaining of [1, 0]) {
            const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers });
            expect(response.statusCode).toBe(200);
            expect(response.headers['ratelimit-policy']).toBe('"default";q=2;w=60');
            expect(response.headers.ratelimit).toBe(`"default";r=${remaining};t=30`);
          }
          const third = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers });
          expect(third.statusCode).toBe(429);
          expect(third.json()).toEqual({ error: 'Too Many Requests' });
          expect(third.headers['retry-after']).toBe('30');
          expect(seen.increments).toEqual(Array.from({ length: 3 }, () => ({ key: 'user:7', timeWindow: 60_000, max: 2 })));
          // Another credential has its own budget.
          expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '8' } })).statusCode).toBe(200);
        } finally {
          await app.close();
        }
      });
    }

    it('a store that fails answers 500 with the generic body (its message never reaches the client), as the plugin answered it', async () => {
      class FailingStore implements FastifyRateLimitStore {
        incr(_key: string, callback: (error: Error | null) => void): void {
          callback(new Error('redis: connection refused at 10.0.0.7:6379'));
        }
        child(): FastifyRateLimitStore {
          return this;
        }
      }
      const { app } = await buildLibraryApp(database, undefined, { rateLimit: { store: FailingStore } });
      try {
        const response = await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '7' } });
        expect(response.statusCode).toBe(500);
        expect(response.body).not.toContain('10.0.0.7');
      } finally {
        await app.close();
      }
    });

    // The rule: "A failing dependency gets a clean 503 and the service recovers by itself; nothing
    // waits without a timeout." A store that never calls back (a frozen Redis, a client library
    // that queues commands while it reconnects) must not hold the request forever.
    it('"nothing waits without a timeout": a store that never answers is a 503 with Retry-After within rateLimit.timeoutMillis, and the next request is counted again once it answers', async () => {
      let silent = true;
      class SilentStore implements FastifyRateLimitStore {
        incr(_key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
          if (silent) return;
          setImmediate(() => callback(null, { current: 1, ttl: 30_000 }));
        }
        child(): FastifyRateLimitStore {
          return this;
        }
      }
      const { app } = await buildLibraryApp(database, undefined, { rateLimit: { store: SilentStore, timeoutMillis: 300 } });
      try {
        const started = performance.now();
        const response = await Promise.race([
          app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '7' } }),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000)),
        ]);
        expect(response, 'the request was still waiting for the store after 5 s').toBeDefined();
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(response!.statusCode).toBe(503);
        expect(response!.json()).toEqual({ error: 'Service Unavailable' });
        expect(response!.headers['retry-after']).toBe('5');
        silent = false;
        expect((await app.inject({ method: 'GET', url: '/api/resources/v1/books', headers: { 'x-user-id': '7' } })).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    });

    it('refuses a rateLimit.timeoutMillis that is not a positive whole number of milliseconds at boot, naming the option and the fix', async () => {
      for (const timeoutMillis of [0, -1, 1.5, Number.NaN, '5000']) {
        await expect(buildLibraryApp(database, undefined, { rateLimit: { timeoutMillis: timeoutMillis as number } })).rejects.toThrow(/rateLimit\.timeoutMillis must be a positive whole number of milliseconds, instead got .*Fix: leave it out for 5000/);
      }
    });
  });
}
