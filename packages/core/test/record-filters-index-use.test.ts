import { expect, it } from 'vitest';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { recordsWhere, type FilterOperator } from '@panel/core';
import { countQueries } from '@panel/test-support';
import { describeOnEachDatabase } from './fixtures/library-database.js';
import { LIBRARY_DDL, insertRows } from './fixtures/library-schema.js';

/** What EXPLAIN runs on: the statement's text and its bound values, as the records layer sent them. */
interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * The plan of a statement with sequential scans priced out, so that any index able to answer it
 * is chosen; with `bitmapScans: false` bitmap scans too, so that any plan left reads the table
 * unless an index holds every column the statement needs.
 */
type Explain = (statement: Statement, options?: { readonly bitmapScans?: boolean }) => Promise<string>;

const pricedOut = (options?: { readonly bitmapScans?: boolean }) => ['enable_seqscan', ...(options?.bitmapScans === false ? ['enable_bitmapscan'] : [])];

/** `Explain` on the test's PostgreSQL schema. */
function explainOnPostgres(db: Kysely<any>): Explain {
  return (statement, options) =>
    db.transaction().execute(async (trx) => {
      for (const setting of pricedOut(options)) await sql`set local ${sql.raw(setting)} = off`.execute(trx);
      const { rows } = await trx.executeQuery(CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]));
      return rows.map((row) => (row as Record<string, string>)['QUERY PLAN']).join('\n');
    });
}

/**
 * PostgreSQL: the test's own schema, with pg_trgm found where it is installed (once per
 * database) or created in `public` (never in the test's schema, whose drop would take the
 * extension, and every trigram index of the database, with it).
 */
async function postgresExplain(db: Kysely<any>): Promise<Explain> {
  const where = () => sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  if ((await where()).rows.length === 0) await sql`create extension if not exists pg_trgm schema public`.execute(db);
  const trigram = (await where()).rows[0]!.schema;
  await sql`create index books_title_trgm on books using gin (title ${sql.id(trigram)}.gin_trgm_ops)`.execute(db);
  await sql`create index books_author_id on books (author_id)`.execute(db);
  await sql`analyze books`.execute(db);
  return explainOnPostgres(db);
}

/** PGlite: Panel opens it without extensions, so the same tables in a PGlite that loads pg_trgm (as the querying page shows). */
async function pgliteExplain(): Promise<Explain & { close(): Promise<void>; readonly pglite: PGlite }> {
  const pglite = new PGlite({ extensions: { pg_trgm } });
  for (const ddl of LIBRARY_DDL) await pglite.exec(ddl);
  await pglite.exec(`create extension if not exists pg_trgm;
    insert into authors (name, handle) select 'author ' || i, '@a' || i from generate_series(1, 10) as i;
    insert into books (title, author_id) select 'book ' || i, 1 + i % 10 from generate_series(1, 120) as i;
    create index books_title_trgm on books using gin (title gin_trgm_ops);
    create index books_author_id on books (author_id);
    analyze books;`);
  const explain: Explain = async (statement, options) =>
    pglite.transaction(async (tx) => {
      await tx.exec(pricedOut(options).map((setting) => `set local ${setting} = off`).join('; '));
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${statement.sql}`, [...statement.parameters]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  return Object.assign(explain, { close: () => pglite.close(), pglite });
}

/** 120 books by 10 authors. */
async function seed({ db }: { db: Kysely<any> }): Promise<void> {
  const authors = await insertRows(db, 'authors', Array.from({ length: 10 }, (_, i) => ({ name: `author ${i}`, handle: `@a${i}` })));
  await insertRows(db, 'books', Array.from({ length: 120 }, (_, i) => ({ title: `book ${i}`, author_id: authors[i % authors.length] })));
}

/**
 * Issue 23: "The docs show the index a deployment adds so this does not scan (e.g. `pg_trgm`
 * GIN, which PGlite also ships)". The conditions the records layer writes for `contains`,
 * `starts_with` and `q` are on the column itself (`r.title ILIKE $1`), so the trigram index
 * docs/querying.md recommends (`using gin (title gin_trgm_ops)`) answers them, and a B-tree
 * answers `eq`: checked with EXPLAIN of the count a filtered index page sends.
 */
describeOnEachDatabase(
  'the filtered count uses the indexes the querying page recommends',
  (library, kind) => {
    it('"contains", "starts_with" and "q" use the trigram GIN index on the column, "eq" on a foreign key its B-tree; no sequential scan', async () => {
      const book = library().resource('Book');
      const field = (name: string) => book.fieldsByName.get(name)!;
      const countOf = async (filters: { field: string; operator: FilterOperator; value: unknown }[], words?: string[]): Promise<Statement> => {
        const statements: Statement[] = [];
        const stop = library().database.onQuery((query) => statements.push({ sql: query.sql, parameters: query.parameters }));
        try {
          const scope = recordsWhere({ filters: filters.map((f) => ({ ...f, field: field(f.field) })), search: words ? { fields: [field('title')], words } : undefined });
          const { count } = await countQueries(library().database, () => library().records.list({ resource: book, view: 'index', page: 1, perPage: 25, scope }));
          expect(count).toBe(2);
        } finally {
          stop();
        }
        const counting = statements.find((statement) => /^select count\(\*\)/i.test(statement.sql));
        expect(counting, statements.map((s) => s.sql).join('\n')).toBeDefined();
        return counting!;
      };
      const contains = await countOf([{ field: 'title', operator: 'contains', value: 'ook 1' }]);
      const startsWith = await countOf([{ field: 'title', operator: 'starts_with', value: 'BOOK 1' }]);
      const search = await countOf([], ['book', '111']);
      const author = await countOf([{ field: 'author', operator: 'eq', value: 3 }]);

      const pglite = kind === 'pglite' ? await pgliteExplain() : undefined;
      const explain = pglite ?? (await postgresExplain(library().db));
      try {
        for (const statement of [contains, startsWith, search]) {
          const plan = await explain(statement);
          expect(plan, statement.sql).toMatch(/Bitmap Index Scan on books_title_trgm/);
          expect(plan, statement.sql).not.toMatch(/Seq Scan/);
        }
        const plan = await explain(author);
        expect(plan, author.sql).toMatch(/(Index Only Scan|Index Scan|Bitmap Index Scan) (using|on) books_author_id /);
        expect(plan, author.sql).not.toMatch(/Seq Scan/);
      } finally {
        await pglite?.close();
      }
    });

    it('"a page picks its ids first [...] so this index answers the first step alone, an index-only scan": a range filter sorted by another column, on (column) include (sort column, id)', async () => {
      const book = library().resource('Book');
      const db = library().db;
      await sql`update books set published_on = date '2024-01-01' + id`.execute(db);
      const statements: Statement[] = [];
      const stop = library().database.onQuery((query) => statements.push({ sql: query.sql, parameters: query.parameters }));
      try {
        const scope = recordsWhere({ filters: [{ field: book.fieldsByName.get('published_on')!, operator: 'gte', value: '2024-02-01' }] });
        const page = await library().records.list({ resource: book, view: 'index', page: 1, perPage: 10, sort: { column: 'pages', direction: 'desc' }, scope });
        expect(page.totalCount).toBe(120 - 30);
      } finally {
        stop();
      }
      const pageStatement = statements.find((statement) => !/^select count\(\*\)/i.test(statement.sql));
      expect(pageStatement, statements.map((s) => s.sql).join('\n')).toBeDefined();

      // On PostgreSQL the test's schema; on PGlite a PGlite that loads pg_trgm, with the same books.
      const explainer = kind === 'pglite' ? await pgliteExplain() : undefined;
      const run = (text: string) => (explainer ? explainer.pglite.exec(text) : sql.raw(text).execute(db));
      try {
        for (const step of [`update books set published_on = date '2024-01-01' + id`, 'create index books_published_on_include_pages_id on books (published_on) include (pages, id)', 'vacuum analyze books']) await run(step);
        const plan = await (explainer ?? explainOnPostgres(db))(pageStatement!, { bitmapScans: false });
        expect(plan, pageStatement!.sql).toMatch(/Index Only Scan using books_published_on_include_pages_id/);
      } finally {
        await explainer?.close();
      }
    });

    it('a datetime filter matches its whole millisecond as a range on the column itself (col >= $1 and col < $2 + 1 ms): a B-tree on the column answers eq, lte, gt (its condition) and in (a bitmap scan per value)', async () => {
      const book = library().resource('Book');
      const db = library().db;
      const at = '2024-01-01T00:00:00.000Z';
      const setup = [`update books set created_at = timestamptz '2024-01-01 00:00:00+00' + id * interval '1 second' + interval '517 microseconds'`];
      const counts: Statement[] = [];
      for (const [operator, value, total] of [['eq', new Date(Date.parse(at) + 5000), 1], ['lte', new Date(Date.parse(at) + 5000), 5], ['gt', new Date(Date.parse(at) + 115_000), 5], ['in', [new Date(Date.parse(at) + 1000), new Date(Date.parse(at) + 2000)], 2]] as const) {
        for (const step of setup) await sql.raw(step).execute(db);
        const statements: Statement[] = [];
        const stop = library().database.onQuery((query) => statements.push({ sql: query.sql, parameters: query.parameters }));
        try {
          const scope = recordsWhere({ filters: [{ field: book.fieldsByName.get('created_at')!, operator, value }] });
          expect((await library().records.list({ resource: book, view: 'index', page: 1, perPage: 10, scope })).totalCount, operator).toBe(total);
        } finally {
          stop();
        }
        counts.push(statements.find((statement) => /^select count\(\*\)/i.test(statement.sql))!);
      }
      // On PostgreSQL the test's schema; on PGlite a PGlite that loads pg_trgm, with the same books.
      const explainer = kind === 'pglite' ? await pgliteExplain() : undefined;
      const run = (text: string) => (explainer ? explainer.pglite.exec(text) : sql.raw(text).execute(db));
      try {
        // Enough rows that reading the whole index costs more than its ranges.
        const more = `insert into books (title, author_id) select 'more ' || i, (select min(id) from authors) from generate_series(1, 20000) as i`;
        for (const step of [more, ...setup, 'create index books_created_at on books (created_at)', 'vacuum analyze books']) await run(step);
        const explain = explainer ?? explainOnPostgres(db);
        // eq, lte and gt: one range of the index (its condition, not a filter over every entry).
        for (const statement of counts.slice(0, 3)) {
          const plan = await explain(statement, { bitmapScans: false });
          expect(plan, statement.sql).toMatch(/Index Only Scan using books_created_at on books r .*\n\s+Index Cond: /);
          expect(plan, statement.sql).not.toMatch(/Seq Scan|Filter:/);
        }
        // in: one range per value, or-ed: a bitmap scan of the index per range.
        const plan = await explain(counts[3]!);
        expect(plan.match(/Bitmap Index Scan on books_created_at/g), plan).toHaveLength(2);
        expect(plan, counts[3]!.sql).not.toMatch(/Seq Scan/);
      } finally {
        await explainer?.close();
      }
    });
  },
  seed,
);
