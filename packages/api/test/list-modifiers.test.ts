// Issue 21, item 3: "List parameters declared once as the route's schema.querystring (JSON
// Schema), from which […] the OpenAPI document reads, and the log allow-list derives; a list
// modifier […] plugs in as one module that contributes its parameters' schema and a scope
// function." Every path below reads LIST_MODIFIERS; the worked example of docs/querying.md
// ("Adding a list modifier") is `idsModifier`, run here against a real database.
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, type PanelDatabase, type RecordsQuery } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { mountPanelApi } from '../src/index.js';
import { LIST_MODIFIERS, listParameters, listQuery, LOGGED_QUERY_PARAMETERS, querystringSchema } from '../src/querying/list-query.js';
import { queryableFields } from '../src/querying/queryable-fields.js';
import { queryValues } from '../src/querying/query-values.js';
import { loggedUrl } from '../src/server/request-log-serializers.js';
import { AUTHORIZED, LIBRARY_ROOT, prepareLibrary } from './library-app.js';
// The worked example of docs/querying.md, as an app writes it (the same file app-list-modifier.test.ts serves over HTTP).
import { idsModifier } from './fixtures/library/app/panel/list-modifiers/ids-modifier.js';

/** The most ids `ids=` takes (the worked example's bound). */
const MAX_IDS = 100;

const MOUNT = { config: { perPage: 24, maxPerPage: 100 }, defaults: {} };

for (const kind of testDatabaseKinds()) {
  describe(`list modifiers: declared once, read by the one list [${kind}]`, () => {
    let database: PanelDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
    });
    afterAll(async () => database?.close());

    const books = async () => (await createPanel({ database, appRoot: LIBRARY_ROOT, ...AUTHORIZED })).resource('Book');
    const ids = async (where: ((query: RecordsQuery) => RecordsQuery) | undefined) => {
      const query = database.db.selectFrom('books as r').select('r.id').orderBy('r.id') as unknown as RecordsQuery;
      return ((await (where ? where(query) : query).execute()) as { id: number }[]).map((row) => row.id);
    };

    it('"the log allow-list derives" from the modifiers: exactly the parameters they mark logged, each one they declare', async () => {
      expect([...LOGGED_QUERY_PARAMETERS].sort()).toEqual(['page', 'per_page', 'sort_by', 'sort_direction']);
      const resource = await books();
      const declared = new Set(listParameters({ ...MOUNT, resource, fields: resource.fieldsOn('index'), queryable: queryableFields({ resource, view: 'index' }) }).map((p) => p.name));
      for (const name of LOGGED_QUERY_PARAMETERS) expect(declared.has(name), name).toBe(true);
      // Filters and q carry users' text: their values are redacted.
      expect(loggedUrl('/api/resources/v1/books?page=2&filter[title]=secret&q=x')).toBe('/api/resources/v1/books?page=2&filter[title]=[redacted]&q=[redacted]');
    });

    it('the route\'s schema.querystring and the OpenAPI operation list the same parameters, with the same schemas', async () => {
      const panel = await createPanel({ database, appRoot: LIBRARY_ROOT, ...AUTHORIZED });
      const app = Fastify();
      const routes: RouteOptions[] = [];
      app.addHook('onRoute', (route) => {
        routes.push(route);
      });
      await app.register(mountPanelApi, { panel });
      await app.ready();
      const document = (await app.inject({ url: '/api/resources/v1/openapi.json' })).json();
      for (const [method, action] of [['GET', 'index'], ['GET', 'show']] as const) {
        const url = action === 'index' ? '/api/resources/v1/books' : '/api/resources/v1/books/:id';
        const route = routes.find((r) => r.method === method && r.url === url)!;
        const querystring = (route.schema as { querystring: { properties: Record<string, { description?: string }> } }).querystring;
        const operation = document.paths[url.replace(':id', '{id}')].get;
        const parameters = operation.parameters.filter((p: { in: string }) => p.in === 'query');
        expect(Object.keys(querystring.properties), action).toEqual(parameters.map((p: { name: string }) => p.name));
        for (const parameter of parameters) expect({ ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) }).toEqual(querystring.properties[parameter.name]);
      }
      // The route's querystring keeps Fastify's answers out: a bad page is the project's own 400 (the action checks it).
      const bad = await app.inject({ url: '/api/resources/v1/books?page=abc', headers: { 'x-user-id': '1' } });
      expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'page must be a positive integer (at most 1000000000), instead got "abc"' }]);
      expect(routes.filter((r) => r.method === 'POST')[0]?.schema).not.toHaveProperty('querystring');
      await app.close();
    });

    it('a new modifier is one module: its parameter is declared (route schema, document) and its scope function narrows the list with the others (AND)', async () => {
      const resource = await books();
      const modifiers = [...LIST_MODIFIERS, idsModifier];
      const parameters = listParameters({ ...MOUNT, resource, fields: resource.fieldsOn('index'), queryable: queryableFields({ resource, view: 'index' }) }, modifiers);
      expect(parameters.at(-1)).toMatchObject({ name: 'ids', style: 'form', explode: false });
      expect((querystringSchema(parameters) as { properties: Record<string, unknown> }).properties.ids).toMatchObject({ type: 'array', maxItems: MAX_IDS });
      const read = (query: Record<string, string>) => listQuery({ resource, queryable: queryableFields({ resource, view: 'index' }), query, values: queryValues(query) }, modifiers);
      // Books 1 and 2 are owned by user 1; ids 2 and 3 asked: only book 2 holds both.
      const both = read({ 'filter[owner_id]': '1', ids: '2,3' });
      expect(both.problems).toEqual([]);
      expect(await ids(both.where)).toEqual([2]);
      expect(await ids(read({ ids: '3' }).where)).toEqual([3]);
      expect(await ids(read({}).where)).toEqual([1, 2, 3, 4]);
      // Every modifier's problems in one list, in the modifiers' order.
      expect(read({ ids: "1,x'; drop table books", 'filter[nope]': '1' }).problems).toEqual([
        'filter[nope]: books has no filterable field "nope" (filterable: id, title, owner_id, author_id)',
        `ids must list at most ${MAX_IDS} record ids, comma-separated`,
      ]);
    });
  });
}
