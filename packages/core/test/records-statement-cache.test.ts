import { expect, it } from 'vitest';
import {
  PanelConfigError,
  RecordsRepository,
  normalizeCountStrategy,
  openDatabase,
  recordsWhere,
  type FilterOperator,
  type PanelDatabase,
  type RecordFilter,
  type ScopeFunction,
} from '@panel/core';
import { createTestSchema, testDatabaseKinds } from '@panel/test-support';
import { describeOnEachDatabase, type Library } from './fixtures/library-database.js';
import { insertRows } from './fixtures/library-schema.js';

// Issue 41: "the statement caches behind one interface with a no-op implementation: a config
// switch and a test that runs the records suite with caching off and gets identical answers".
// Here, one repository keeps its statements and one keeps none, on the same data: every list,
// find and write answers the same, through the same statements with the same parameters.

async function seed({ db }: Library): Promise<void> {
  await insertRows(db, 'authors', [{ name: 'ann', handle: 'a' }, { name: 'bob', handle: 'b' }]);
  await insertRows(
    db,
    'books',
    Array.from({ length: 9 }, (_, i) => ({ title: `book ${i + 1}${i % 3 === 0 ? ' tea' : ''}`, pages: 100 + 50 * (i % 4), published: i % 2 === 0, author_id: 1 + (i % 2), created_at: new Date(Date.UTC(2026, 0, 1 + i)) })),
  );
  await insertRows(db, 'reviews', [{ book_id: 1, stars: 4 }, { book_id: 1, stars: 5 }, { book_id: 2, stars: 3 }]);
}

/** The statements a piece of work sent, in a stable order (a page and its count run side by side), with its answer. */
async function sent<T>(database: PanelDatabase, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = database.onQuery((query) => statements.push(JSON.stringify([query.sql, query.parameters])));
  try {
    return { result: await work(), statements: statements.sort() };
  } finally {
    stop();
  }
}

describeOnEachDatabase(
  'the statement cache on and off: the same answers through the same statements',
  (library) => {
    const book = () => library().resource('Book');
    const repositories = (count?: 'estimate' | 'cached') => {
      const options = count === undefined ? {} : { count: normalizeCountStrategy(count === 'estimate' ? { strategy: 'estimate', exactBelow: 5 } : { strategy: 'cached', maxAgeMs: 60_000 }, 'count') };
      return {
        kept: new RecordsRepository(library().db, library().panel.resources, { ...options, statements: true }),
        none: new RecordsRepository(library().db, library().panel.resources, { ...options, statements: false }),
      };
    };
    const filter = (name: string, operator: FilterOperator, raw: string | string[]): RecordFilter => {
      const target = book().fieldsByName.get(name)!;
      const parse = (one: string) => {
        const parsed = target.kind.filter!.parse(one, target);
        if (!parsed.ok) throw new Error(`${name}: ${parsed.message}`);
        return parsed.value;
      };
      return { field: target, operator, value: Array.isArray(raw) ? raw.map(parse) : parse(raw) };
    };
    const published: ScopeFunction = (query) => query.where('r.published', '=', true);
    const lists = () => {
      const base = { resource: book(), view: 'index' as const, page: 1, perPage: 3 };
      return {
        'the default order, page 1': base,
        'sorted by pages, page 2': { ...base, page: 2, sort: { column: 'pages', direction: 'desc' as const } },
        'a page past the last': { ...base, page: 9 },
        'filters whose SQL is fixed by their operators': { ...base, where: recordsWhere({ filters: [filter('pages', 'gte', '150'), filter('id', 'in', ['1', '2', '3', '5'])] }) },
        'the same filters with other values': { ...base, where: recordsWhere({ filters: [filter('pages', 'gte', '200'), filter('id', 'in', ['4', '6', '7', '9'])] }) },
        'a contains filter (its pattern is made from the value)': { ...base, where: recordsWhere({ filters: [filter('title', 'contains', 'tea')] }) },
        'a search': { ...base, where: recordsWhere({ search: { fields: [book().fieldsByName.get('title')!], words: ['tea'] } }) },
        'a scope that narrows': { ...base, scope: published },
        'a scope that lets every row through': { ...base, scope: (query: Parameters<ScopeFunction>[0]) => query },
        'associations narrowed to what the actor reads': { ...base, readable: (target: { name: string }) => (target.name === 'Author' ? (query: Parameters<ScopeFunction>[0]) => query.where('r.id', '=', 1) : undefined) },
        'a sparse fieldset': { ...base, fields: new Set(['title', 'author']) },
      };
    };

    for (const count of [undefined, 'estimate', 'cached'] as const) {
      it(`lists (${count ?? 'exact'} count): every kind of list answers the same, through the same statements, the first time and from the kept statements after`, async () => {
        const { kept, none } = repositories(count);
        for (const round of [1, 2]) {
          for (const [name, input] of Object.entries(lists())) {
            const withCache = await sent(library().database, () => kept.list(input as Parameters<RecordsRepository['list']>[0]));
            const without = await sent(library().database, () => none.list(input as Parameters<RecordsRepository['list']>[0]));
            expect(withCache.result, `${name}, round ${round}`).toEqual(without.result);
            // The cached strategy answers the second round from memory: both repositories alike.
            expect(withCache.statements, `${name}, round ${round}`).toEqual(without.statements);
          }
        }
        expect(kept.cachesStatements).toBe(true);
        // The default order, the order by pages and the two filters' shape have statements kept; contains is built per request.
        expect(kept.listShapes).toEqual({ kept: 4, compiled: 3 });
        expect(none.cachesStatements).toBe(false);
        expect(none.listShapes).toEqual({ kept: 0, compiled: 0 });
      });
    }

    it('finds, creates, updates and deletes answer the same through the same statements', async () => {
      const { kept, none } = repositories();
      for (const round of [1, 2]) {
        for (const id of [1, 2, 404]) {
          for (const scope of [undefined, published]) {
            const find = (records: RecordsRepository) => records.find({ resource: book(), view: 'show', id, scope }).catch((error: unknown) => (error as { code?: string }).code);
            const withCache = await sent(library().database, () => find(kept));
            const without = await sent(library().database, () => find(none));
            expect(withCache.result, `find ${id}, round ${round}`).toEqual(without.result);
            expect(withCache.statements, `find ${id}, round ${round}`).toEqual(without.statements);
          }
        }
        const values = { title: `written ${round}`, pages: 10 * round, author_id: 2 };
        const created = [await sent(library().database, () => kept.create({ resource: book(), view: 'show', values })), await sent(library().database, () => none.create({ resource: book(), view: 'show', values }))];
        const { id: first, created_at: _, ...createdWith } = created[0]!.result;
        const { id: second, created_at: __, ...createdWithout } = created[1]!.result;
        expect(createdWith).toEqual(createdWithout);
        expect(created[0]!.statements).toEqual(created[1]!.statements);
        const update = (records: RecordsRepository, id: number) => records.update({ resource: book(), view: 'show', id, values: { title: `updated ${round}`, pages: 7 } });
        const updated = [await sent(library().database, () => update(kept, first as number)), await sent(library().database, () => update(none, second as number))];
        expect({ ...updated[0]!.result, id: 0, created_at: 0 }).toEqual({ ...updated[1]!.result, id: 0, created_at: 0 });
        expect(updated[0]!.statements.map((s) => s.replace(String(first), '?'))).toEqual(updated[1]!.statements.map((s) => s.replace(String(second), '?')));
        await kept.destroy({ resource: book(), id: first as number });
        await none.destroy({ resource: book(), id: second as number });
      }
    });
  },
  seed,
);

it('"validated at boot with a message naming the option": statementCache takes true or false, and false never beside named statements', async () => {
  for (const statementCache of ['off', 0, null]) {
    const error = await openDatabase({ statementCache: statementCache as never }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(PanelConfigError);
    expect((error as Error).message).toMatch(/^Database statementCache must be true or false, instead got .*\. Fix: /);
  }
  for (const preparedStatements of [true, 'all', 'direct', { max: 10 }] as const) {
    const error = await openDatabase({ url: 'postgres://nowhere.invalid/db', statementCache: false, preparedStatements }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(PanelConfigError);
    expect((error as Error).message).toMatch(/statementCache is false, .* but preparedStatements is .*\. Fix: /);
  }
});

const describePostgres = testDatabaseKinds().includes('postgres') ? it : it.skip;

describePostgres('"named/prepared statements" are off with statementCache: false: a connection prepares none [postgres]', async () => {
  const schema = await createTestSchema();
  const on = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 1, preparedStatements: 'all' });
  const off = await openDatabase({ url: schema.url, schema: schema.schema, maxConnections: 1, statementCache: false });
  try {
    const prepared = async (database: PanelDatabase) => {
      await database.db.selectFrom('pg_class').select('relname').where('relname', '=', 'pg_class').execute();
      return (await database.db.selectFrom('pg_prepared_statements').select('name').execute()).length;
    };
    expect(await prepared(on)).toBeGreaterThan(0);
    expect(await prepared(off)).toBe(0);
    expect(off.statementCache).toBe(false);
  } finally {
    await on.close();
    await off.close();
    await schema.drop();
  }
});
