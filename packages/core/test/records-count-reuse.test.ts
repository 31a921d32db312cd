import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries, openTestDatabase, startPrivatePostgres, testDatabaseKinds, type PrivatePostgres } from '@panel/test-support';
import { RecordsRepository, createPanel, normalizeCountStrategy, openDatabase, type ExecutedQuery, type Panel, type PanelDatabase, type ScopeFunction } from '@panel/core';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { createLibrarySchema, insertRows } from './fixtures/library-schema.js';
import { LIBRARY_RESOURCES } from './fixtures/library-resources.js';

/**
 * `{ strategy: 'exact', reuseUnchangedMs }`: "the same exact total, but the count's statement
 * skips the scan when PostgreSQL's snapshot is still the one an earlier count of the same list
 * and scope saw, at most `reuseUnchangedMs` ago: no transaction has committed anywhere in the
 * database since, so the rows it counted are the rows there are."
 */
async function seed(db: PanelDatabase['db']): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann' }, { name: 'bob' }, { name: 'cid' }]);
  await insertRows(db, 'books', Array.from({ length: 30 }, (_, i) => ({ title: `book ${i}`, published: i % 2 === 0, author_id: 1 + (i % 3) })));
}

const byAuthor =
  (author: number): ScopeFunction =>
  (query) =>
    query.where('r.author_id', '=', author);

const reusing = (panel: Panel, db: PanelDatabase['db'], options: { reuseUnchangedMs: number; maxEntries?: number }) =>
  new RecordsRepository(db, panel.resources, { count: normalizeCountStrategy({ strategy: 'exact', ...options }, 'count') });

const list = (panel: Panel, records: RecordsRepository, scope?: ScopeFunction) =>
  records.list({ resource: panel.resource('Book'), view: 'index', page: 1, perPage: 5, ...(scope ? { scope } : {}) });

/** The count statements a piece of work sent, with their parameters. */
async function countsSent<T>(database: PanelDatabase, work: () => Promise<T>): Promise<{ result: T; counts: ExecutedQuery[] }> {
  const counts: ExecutedQuery[] = [];
  const stop = database.onQuery((query) => {
    if (query.sql.includes('pg_current_snapshot()')) counts.push(query);
  });
  try {
    return { result: await work(), counts };
  } finally {
    stop();
  }
}

/** The snapshot a count statement was sent with: '' when no earlier count was held for it. */
const heldSnapshot = (count: ExecutedQuery) => count.parameters.at(-1);

/** Whether the scan under the count statement ran, by `EXPLAIN ANALYZE` of the same text and parameters now. */
async function scans(db: PanelDatabase['db'], count: ExecutedQuery): Promise<boolean> {
  const { rows } = await db.executeQuery(CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${count.sql}`, [...count.parameters]));
  const plan = rows.map((row) => Object.values(row as Record<string, string>)[0]).join('\n');
  const aggregate = plan.split('\n').find((line) => line.includes('Aggregate'));
  expect(aggregate, plan).toBeDefined();
  return !aggregate!.includes('never executed');
}

describeOnEachDatabase('an exact count reused while the database is unchanged: always the exact total', (library) => {
  const total = async (author?: number) =>
    Number((await sql<{ n: string }>`select count(*) as n from books ${author === undefined ? sql`` : sql`where author_id = ${author}`}`.execute(library().db)).rows[0]!.n);

  it('"the rows it counted are the rows there are": every page after a write, through the records layer or outside it, has the total of count(*) made then', async () => {
    const records = reusing(library().panel, library().db, { reuseUnchangedMs: 60_000 });
    const created: number[] = [];
    for (let step = 0; step < 12; step += 1) {
      const author = 1 + (step % 3);
      if (step % 4 === 0) created.push((await library().records.create({ resource: library().resource('Book'), view: 'show', values: { title: `reuse ${step}`, author_id: author } })).id as number);
      else if (step % 4 === 1) await sql`insert into books (title, author_id) values (${`outside ${step}`}, ${author})`.execute(library().db);
      else if (step % 4 === 2) await sql`delete from books where title = ${`outside ${step - 1}`}`.execute(library().db);
      // Twice: the second page is the one that may reuse the first one's count.
      for (const scope of [byAuthor(author), byAuthor(author), undefined, undefined]) {
        const page = await list(library().panel, records, scope);
        expect(page.totalCount).toBe(await total(scope === undefined ? undefined : author));
        expect(page.totalCountSource).toBeUndefined();
      }
    }
    for (const id of created) await library().records.destroy({ resource: library().resource('Book'), id });
    await sql`delete from books where title like 'outside %'`.execute(library().db);
  });
  it('on a server without pg_current_snapshot() (before PostgreSQL 13) every page counts plainly, and a warning says so once', async () => {
    const db = library().db;
    // The server's answer to a function it lacks (42883), made by renaming the function in the statements sent.
    const older = new Proxy(db, {
      get(target, property) {
        if (property === 'executeQuery') return (query: CompiledQuery) => target.executeQuery(CompiledQuery.raw(query.sql.replaceAll('pg_current_snapshot()', 'pg_current_snapshot_before_13()'), [...query.parameters]));
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const warnings: string[] = [];
    const listen = (warning: Error & { code?: string }) => warnings.push(`${warning.code}: ${warning.message}`);
    process.on('warning', listen);
    try {
      const records = reusing(library().panel, older, { reuseUnchangedMs: 60_000 });
      const { result, statements } = await countQueries(library().database, async () => [await list(library().panel, records, byAuthor(1)), await list(library().panel, records, byAuthor(1))]);
      expect(result.map((page) => page.totalCount)).toEqual([await total(1), await total(1)]);
      // The first count failed and was made again plainly; the second went plainly at once.
      expect(statements.filter((statement) => statement.startsWith('select count(*)'))).toHaveLength(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([expect.stringMatching(/^PANEL_WARN_COUNT_REUSE_UNAVAILABLE: .*needs pg_current_snapshot\(\).*Fix: upgrade PostgreSQL, or leave reuseUnchangedMs out\.$/)]);
    } finally {
      process.off('warning', listen);
    }
  });
}, (library: Library) => seed(library.db));

/**
 * Where nothing else commits (PGlite in the process; a private PostgreSQL primary), a repeated
 * count is seen to skip its scan. On the shared test server other suites commit all the time,
 * which is the case the first suite covers.
 */
function reuseOnAQuietDatabase(name: string, kind: 'pglite' | 'postgres', open: () => Promise<PanelDatabase>): void {
  describe(name, () => {
    let database: PanelDatabase;
    let panel: Panel;
    beforeAll(async () => {
      database = await open();
      await createLibrarySchema(database.db);
      // No autovacuum's analyze: its commit would change the snapshot in the middle of a test.
      if (database.kind === 'postgres') for (const table of ['authors', 'books']) await sql`alter table ${sql.table(table)} set (autovacuum_enabled = false)`.execute(database.db);
      await seed(database.db);
      panel = await createPanel({ database, resources: LIBRARY_RESOURCES });
    }, 60_000);
    afterAll(async () => {
      await database?.close();
    });

    it('a second count of the same list and scope, with no commit in between, skips its scan and answers the same total', async () => {
      const records = reusing(panel, database.db, { reuseUnchangedMs: 60_000 });
      const first = await countsSent(database, () => list(panel, records, byAuthor(1)));
      const second = await countsSent(database, () => list(panel, records, byAuthor(1)));
      expect([first.result.totalCount, second.result.totalCount]).toEqual([10, 10]);
      expect(second.result.totalCountSource).toBeUndefined();
      expect(heldSnapshot(first.counts[0]!)).toBe('');
      expect(heldSnapshot(second.counts[0]!)).toMatch(/^\d+:\d+:/);
      expect(await scans(database.db, first.counts[0]!)).toBe(true);
      expect(await scans(database.db, second.counts[0]!)).toBe(false);
    });

    it('after a commit (even to another table) the count scans again and sees the new row', async () => {
      const records = reusing(panel, database.db, { reuseUnchangedMs: 60_000 });
      await list(panel, records, byAuthor(2));
      await sql`insert into authors (name) values ('dee')`.execute(database.db);
      const [held] = (await countsSent(database, () => list(panel, records, byAuthor(2)))).counts;
      expect(await scans(database.db, held!)).toBe(true);
      await sql`insert into books (title, author_id) values ('one more', 2)`.execute(database.db);
      expect((await list(panel, records, byAuthor(2))).totalCount).toBe(11);
      await sql`delete from books where title = 'one more'`.execute(database.db);
      expect((await list(panel, records, byAuthor(2))).totalCount).toBe(10);
    });

    // PGlite has one connection: a transaction held open blocks every other statement.
    if (kind === 'postgres') it('a transaction in progress during a count, which commits after it, is counted: the snapshot lists the transactions in progress', async () => {
      const records = reusing(panel, database.db, { reuseUnchangedMs: 60_000 });
      const before = (await list(panel, records, byAuthor(3))).totalCount;
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let inserted!: () => void;
      const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
      const open = database.db.transaction().execute(async (trx) => {
        await trx.insertInto('books').values({ title: 'in progress', author_id: 3 }).execute();
        inserted();
        await held;
      });
      await insertedNow;
      // A later transaction commits meanwhile, so the open one is below the snapshot's xmax, in its list.
      await sql`insert into authors (name) values ('eve')`.execute(database.db);
      const during = await countsSent(database, async () => [await list(panel, records, byAuthor(3)), await list(panel, records, byAuthor(3))]);
      expect(during.result.map((page) => page.totalCount)).toEqual([before, before]);
      expect(await scans(database.db, during.counts[1]!)).toBe(false);
      expect(String(heldSnapshot(during.counts[1]!))).toMatch(/^\d+:\d+:\d+/);
      commit();
      await open;
      expect((await list(panel, records, byAuthor(3))).totalCount).toBe(before + 1);
      await sql`delete from books where title = 'in progress'`.execute(database.db);
    });

    it('"at most reuseUnchangedMs ago": an older count is not offered again', async () => {
      const records = reusing(panel, database.db, { reuseUnchangedMs: 50 });
      await list(panel, records, byAuthor(3));
      await new Promise((resolve) => setTimeout(resolve, 120));
      const [late] = (await countsSent(database, () => list(panel, records, byAuthor(3)))).counts;
      expect(heldSnapshot(late!)).toBe('');
    });

    it('"at most maxEntries counts are kept per panel, the oldest going first"', async () => {
      const records = reusing(panel, database.db, { reuseUnchangedMs: 60_000, maxEntries: 2 });
      for (const author of [1, 2, 3]) await list(panel, records, byAuthor(author));
      const offered = async (author: number) => heldSnapshot((await countsSent(database, () => list(panel, records, byAuthor(author)))).counts[0]!);
      expect(await offered(3)).not.toBe('');
      expect(await offered(2)).not.toBe('');
      expect(await offered(1)).toBe('');
    });
  });
}

reuseOnAQuietDatabase('an exact count reused while unchanged [pglite]', 'pglite', () => openTestDatabase('pglite'));

const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

describePostgres('an exact count reused while unchanged [private PostgreSQL primary and its streaming replica]', () => {
  let primary: PrivatePostgres | undefined;
  let replica: PrivatePostgres | undefined;
  let starting: Promise<PrivatePostgres> | undefined;
  const started = () => (starting ??= startPrivatePostgres().then((made) => (primary = made)));
  afterAll(async () => {
    await replica?.close();
    await primary?.close();
  });

  reuseOnAQuietDatabase('on the primary', 'postgres', async () => openDatabase({ url: (await started()).url }));

  it('"or when the server is a standby": a count read from a replica scans every time and is never kept', async () => {
    const source = await started();
    replica = await startPrivatePostgres({ replicaOf: source });
    const database = await openDatabase({ url: source.url, replicas: [replica.url], replicaMaxLagMillis: 10_000, replicaCheckIntervalMillis: 100, logger: { warn: () => undefined } });
    try {
      await database.replicas!.check();
      const panel = await createPanel({ database, resources: LIBRARY_RESOURCES });
      const records = reusing(panel, database.db, { reuseUnchangedMs: 60_000 });
      const sent = await countsSent(database, async () => [await list(panel, records), await list(panel, records)]);
      expect((await sql<{ standby: boolean }>`select pg_is_in_recovery() as standby`.execute(database.db)).rows[0]!.standby).toBe(true);
      expect(sent.result.map((page) => page.totalCount)).toEqual([30, 30]);
      expect(sent.counts.map(heldSnapshot)).toEqual(['', '']);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('normalizeCountStrategy: the exact strategy with reuseUnchangedMs', () => {
  it('takes reuseUnchangedMs (0 is the plain exact count) and maxEntries (default 1,000)', () => {
    expect(normalizeCountStrategy({ strategy: 'exact', reuseUnchangedMs: 1000 }, 'count')).toEqual({ strategy: 'exact', reuseUnchangedMs: 1000, maxEntries: 1000 });
    expect(normalizeCountStrategy({ strategy: 'exact', reuseUnchangedMs: 0 }, 'count')).toEqual({ strategy: 'exact' });
  });

  it('names the option and the fix for a wrong value', () => {
    expect(() => normalizeCountStrategy({ strategy: 'exact', reuseUnchangedMs: -1 }, 'count')).toThrow(
      'Panel config: count.reuseUnchangedMs must be a whole number of at least 0, instead got -1. Fix: set reuseUnchangedMs to a number such as 10000.',
    );
    expect(() => normalizeCountStrategy({ strategy: 'exact', maxEntries: 5 }, 'count')).toThrow(
      'Panel config: count.maxEntries keeps counts only when reuseUnchangedMs is set, instead got 5. Fix: set reuseUnchangedMs (such as 1000), or leave maxEntries out.',
    );
  });
});
