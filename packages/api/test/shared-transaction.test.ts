// Issue 42, item 8 ("Nothing waits forever"): during a keyed (Idempotency-Key) or If-Match write,
// a policy that queries through another handle of the database (`panel.database.db`, not the
// write's transaction) finishes with the right answer on PGlite and PostgreSQL, and a statement
// that cannot join the write's transaction fails within a bound, with a message naming the cause.
import { AsyncResource } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Policy, PolicyScope, Resource, field, openDatabase, type DatabaseKind, type PanelDatabase } from '@panel/core';
import { createTestSchema, pgliteSnapshot, testDatabaseKinds } from '@panel/test-support';
import AuthorResource from './fixtures/library/app/panel/resources/author.js';
import { buildLibraryApp, prepareLibrary, AUTHORIZED } from './library-app.js';

interface User {
  id: number;
}

/** How long a statement outside the write may wait: PGlite's connection, PostgreSQL's statement timeout. */
const BOUND_MILLIS = { pglite: 400, postgres: 1_500 } as const;
/** "At most 3 books per owner", counted by the create policy. */
const MAX_BOOKS = 3;

let database: PanelDatabase;
/** How the update policy runs its query: in the request (the default), or from code started before any request. */
let runQuery: <T>(work: () => Promise<T>) => Promise<T> = (work) => work();

/** Queries through `database.db`, the panel's own handle, never through the write's transaction. */
class QueryingBookPolicy extends Policy<User, { id: number; owner_id: number }> {
  static override Scope = class extends PolicyScope<User> {
    override resolve() {
      return this.query;
    }
  };

  override index() {
    return true;
  }

  override show() {
    return true;
  }

  override async create() {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from books where owner_id = ${this.user!.id}`.execute(database.db);
    return rows[0]!.n < MAX_BOOKS;
  }

  override async update() {
    const id = this.record!.id;
    // A share lock: on PostgreSQL it waits for the If-Match write's row lock unless it runs in that write's transaction.
    const row = await runQuery(() => (database.db as Kysely<any>).selectFrom('books').select('owner_id').where('id', '=', id).forShare().executeTakeFirst());
    return row?.owner_id === this.user?.id;
  }
}

class BookResource extends Resource {
  static override policy = QueryingBookPolicy;

  override fields() {
    return [field.id(), field.text('title', { required: true, maxLength: 60 }), field.integer('owner_id'), field.belongsTo('author')];
  }
}

async function openWithBound(kind: DatabaseKind): Promise<PanelDatabase> {
  if (kind === 'pglite') return openDatabase({ loadDataDir: await pgliteSnapshot(), connectionTimeoutMillis: BOUND_MILLIS.pglite });
  const { url, schema, drop } = await createTestSchema();
  const opened = await openDatabase({ url, schema, maxConnections: 4, statementTimeoutMillis: BOUND_MILLIS.postgres });
  const close = async () => {
    await opened.close();
    await drop();
  };
  return { ...opened, close };
}

for (const kind of testDatabaseKinds()) {
  describe(`a policy that queries through panel.database.db during a keyed or If-Match write [${kind}]`, () => {
    let app: FastifyInstance;
    let logs: string[];
    beforeAll(async () => {
      database = await openWithBound(kind);
      await prepareLibrary(database);
      ({ app, logs } = await buildLibraryApp(database, { ...AUTHORIZED, resources: [AuthorResource, BookResource] }, {}, 'warn'));
    }, 30_000);
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, user: number, headers: Record<string, string> = {}, payload?: object) =>
      app.inject({ method, url: `/api/resources/v1${url}`, headers: { 'x-user-id': String(user), ...headers }, ...(payload ? { payload } : {}) });
    const etagOf = async (id: number, user = 1) => (await send('GET', `/books/${id}`, user)).headers.etag as string;

    it('"every statement a request issues runs inside the request\'s transaction": keyed creates are counted by the policy, the fourth refused', async () => {
      const statuses: number[] = [];
      for (let n = 1; n <= MAX_BOOKS + 1; n += 1) {
        statuses.push((await send('POST', '/books', 3, { 'idempotency-key': `shared-create-${kind}-${n}` }, { book: { title: `Counted ${n}`, owner_id: 3 } })).statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 403]);
      // A replay of the first key answers its stored 201; the policy still counts 3.
      expect((await send('POST', '/books', 3, { 'idempotency-key': `shared-create-${kind}-1` }, { book: { title: 'Counted 1', owner_id: 3 } })).statusCode).toBe(201);
    }, 20_000);

    it('an If-Match update whose policy takes a share lock on the locked row through panel.database.db: 200 for the owner, 403 for another user', async () => {
      const owner = await send('PATCH', '/books/1', 1, { 'if-match': await etagOf(1) }, { book: { title: 'Locked and read' } });
      expect(owner.statusCode, owner.body).toBe(200);
      expect(owner.json().record.title).toBe('Locked and read');
      const other = await send('PATCH', '/books/1', 2, { 'if-match': await etagOf(1, 2) }, { book: { title: 'Not yours' } });
      expect(other.statusCode).toBe(403);
      // Keyed and conditional at once.
      const keyed = await send('PATCH', '/books/2', 1, { 'idempotency-key': `shared-update-${kind}`, 'if-match': await etagOf(2) }, { book: { title: 'Keyed and locked' } });
      expect(keyed.statusCode, keyed.body).toBe(200);
      expect((await send('GET', '/books/2', 1)).json().record.title).toBe('Keyed and locked');
    }, 20_000);

    it('a statement that cannot join the write (run by code started before the request) fails within the bound, with a 503, and the next request is served', async () => {
      // As a queue or a batching cache created at boot runs its work: in the boot's context, not the request's.
      runQuery = AsyncResource.bind(<T,>(work: () => Promise<T>) => work());
      try {
        const started = Date.now();
        const refused = await send('PATCH', '/books/1', 1, { 'if-match': await etagOf(1) }, { book: { title: 'Never written' } });
        const elapsed = Date.now() - started;
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toEqual({ error: 'Service Unavailable' });
        expect(elapsed).toBeGreaterThanOrEqual(BOUND_MILLIS[kind] - 50);
        expect(elapsed).toBeLessThan(BOUND_MILLIS[kind] + 3_000);
        // The log names the cause: PGlite's wait for its one connection, PostgreSQL's statement timeout.
        expect(logs.join('\n')).toMatch(kind === 'pglite' ? /waited 400 ms for PGlite's one connection.*Fix: query through the transaction/ : /57014/);
        // A keyed write without a row lock: on PostgreSQL the outside read does not wait, and answers right.
        if (kind === 'postgres') expect((await send('PATCH', '/books/2', 1, { 'idempotency-key': 'outside-keyed' }, { book: { title: 'Read outside' } })).statusCode).toBe(200);
      } finally {
        runQuery = (work) => work();
      }
      expect((await send('GET', '/books/1', 1)).json().record.title).toBe('Locked and read');
      expect((await send('PATCH', '/books/1', 1, { 'if-match': await etagOf(1) }, { book: { title: 'Served again' } })).statusCode).toBe(200);
    }, 20_000);
  });
}
