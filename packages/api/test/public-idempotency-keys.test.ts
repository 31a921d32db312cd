// Issue 42, item 15 (info): "one idempotency namespace per client on public controllers". An
// anonymous client's Idempotency-Key belongs to that client (its address, as Fastify sees it:
// `request.ip`, which honours trustProxy), not to every anonymous client of the endpoint: another
// client sending the same key must neither get the first client's stored answer (its record)
// nor a 422 for its different body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildLibraryApp, prepareLibrary } from './library-app.js';

for (const kind of testDatabaseKinds()) {
  describe(`Idempotency-Key on a public controller: one namespace per client [${kind}]`, () => {
    let database: PanelDatabase;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      ({ app } = await buildLibraryApp(database, { license: { features: ['api'] } }, { controllersDir: 'app/controllers/panel/api/public' }));
    }, 30_000);
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const create = (remoteAddress: string, key: string, title: string) =>
      app.inject({ method: 'POST', url: '/api/resources/v1/books', remoteAddress, headers: { 'idempotency-key': key }, payload: { book: { title } } });

    it('two anonymous clients with the same key and body each write their own record; each client\'s retry replays its own', async () => {
      const first = await create('203.0.113.1', 'shared-key', 'Public form');
      expect(first.statusCode).toBe(201);
      const second = await create('203.0.113.2', 'shared-key', 'Public form');
      expect(second.statusCode).toBe(201);
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expect(second.json().record.id).not.toBe(first.json().record.id);
      const retry = await create('203.0.113.1', 'shared-key', 'Public form');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json().record.id).toBe(first.json().record.id);
    });

    it('another client\'s different body under the same key is its own write, not a 422 (nothing about the first client leaks)', async () => {
      expect((await create('203.0.113.3', 'another-key', 'Mine')).statusCode).toBe(201);
      const other = await create('203.0.113.4', 'another-key', 'Theirs');
      expect(other.statusCode).toBe(201);
      expect(other.json().record.title).toBe('Theirs');
      // The same client reusing its key with another body is still refused.
      expect((await create('203.0.113.3', 'another-key', 'Changed')).statusCode).toBe(422);
    });
  });
}
