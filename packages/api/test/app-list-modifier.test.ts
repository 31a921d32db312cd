// Issue 41, item 3: "an app's own modifier is one file (a docs example that a test runs over
// HTTP)"; "a controller (or the mount) lists its modifiers, as a DRF view lists its filter
// backends". The file is docs/querying.md's "Your own list modifier" example, word for word.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { LIST_MODIFIERS } from '../src/index.js';
import { idsModifier } from './fixtures/library/app/panel/list-modifiers/ids-modifier.js';
import { AUTHORIZED, buildLibraryApp, LIBRARY_ROOT, prepareLibrary } from './library-app.js';
import { codeBlocks } from './support/doc-code-blocks.js';

const MODIFIER_FILE = fileURLToPath(new URL('./fixtures/library/app/panel/list-modifiers/ids-modifier.ts', import.meta.url));
const QUERYING_DOC = fileURLToPath(new URL('../../../docs/querying.md', import.meta.url));
const USER_1 = { 'x-user-id': '1' };

const ids = (response: { json(): unknown }) => (response.json() as { records: { id: number }[] }).records.map((record) => record.id);

describe('an app\'s own list modifier is one file', () => {
  it('the file this test runs is the docs example, word for word', async () => {
    const block = codeBlocks(await readFile(QUERYING_DOC, 'utf8')).find((candidate) => candidate.path === 'app/panel/list-modifiers/ids-modifier.ts');
    expect(block?.code).toBe(await readFile(MODIFIER_FILE, 'utf8'));
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`an app's own list modifier, over HTTP [${kind}]`, () => {
    let database: PanelDatabase;
    let mounted: FastifyInstance;
    let perController: FastifyInstance;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await prepareLibrary(database);
      mounted = (await buildLibraryApp(database, AUTHORIZED, { listModifiers: [...LIST_MODIFIERS, idsModifier] })).app;
      perController = (await buildLibraryApp(database, AUTHORIZED, { controllersDir: `${LIBRARY_ROOT}app/controllers/panel/api/modifiers` })).app;
    });
    afterAll(async () => {
      await mounted?.close();
      await perController?.close();
      await database?.close();
    });

    it('on the mount (listModifiers): narrows every list with the others (AND, after the policy scope), and its problems join the one 400', async () => {
      // User 1 owns books 1 and 2 (the policy scope); ids 2 and 3 asked: only book 2 is both.
      expect(ids(await mounted.inject({ url: '/api/resources/v1/books?ids=2,3', headers: USER_1 }))).toEqual([2]);
      expect(ids(await mounted.inject({ url: '/api/resources/v1/books?ids=1,2&filter[title][contains]=cities', headers: USER_1 }))).toEqual([2]);
      // The page and the count alike: 3 ids asked, 2 of them in the user's scope.
      const count = (await mounted.inject({ url: '/api/resources/v1/books?ids=1,2,3&per_page=1', headers: USER_1 })).json() as { pagination: { total_count: number } };
      expect(count.pagination.total_count).toBe(2);
      const bad = await mounted.inject({ url: "/api/resources/v1/books?ids=1,x'&filter[nope]=1", headers: USER_1 });
      expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'filter[nope]: books has no filterable field "nope" (filterable: id, title, owner_id, author_id); ids must list at most 100 record ids, comma-separated' }]);
    });

    it('its parameter is declared once: in the route\'s schema and on every list operation of the OpenAPI document', async () => {
      const document = (await mounted.inject({ url: '/api/resources/v1/openapi.json' })).json() as { paths: Record<string, { get: { parameters: { name: string; schema: unknown }[] } }> };
      for (const path of ['/api/resources/v1/books', '/api/resources/v1/authors']) {
        expect(document.paths[path]!.get.parameters.find((parameter) => parameter.name === 'ids')?.schema).toEqual({ type: 'array', items: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, minItems: 1, maxItems: 100 });
      }
      expect(document.paths['/api/resources/v1/books/{id}']!.get.parameters.map((parameter) => parameter.name)).not.toContain('ids');
    });

    it('on one controller (static listModifiers): that controller\'s lists read it, the others do not know it', async () => {
      expect(ids(await perController.inject({ url: '/api/resources/v1/books?ids=2,3', headers: USER_1 }))).toEqual([2]);
      // Authors keep the built-in modifiers: `ids` is no parameter of theirs, so it narrows nothing.
      expect(ids(await perController.inject({ url: '/api/resources/v1/authors?ids=1&sort_by=id', headers: USER_1 }))).toEqual([1, 2, 3]);
      const document = (await perController.inject({ url: '/api/resources/v1/openapi.json' })).json() as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
      expect(document.paths['/api/resources/v1/books']!.get.parameters.map((parameter) => parameter.name)).toContain('ids');
      expect(document.paths['/api/resources/v1/authors']!.get.parameters.map((parameter) => parameter.name)).not.toContain('ids');
    });
  });
}
