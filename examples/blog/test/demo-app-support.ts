import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { diskStorage, type DatabaseKind } from '@panel/core';
import { openApiResponseChecker, openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import type { FastifyInstance } from 'fastify';
import { buildDemoApp, type BuildDemoAppOptions, type DemoApp } from '../src/build-app.js';

/** Authorization headers of the demo's two keys. */
export const ADMIN = { authorization: 'ApiKey demo-admin-key' } as const;
export const READER = { authorization: 'ApiKey demo-reader-key' } as const;

/**
 * Runs a suite once per test database (PGlite and PostgreSQL), each on a freshly migrated and
 * seeded demo app of its own, its files in a temporary storage folder of its own. `demo()`
 * gives the running app inside tests. On PGlite the demo opens its in-memory database as
 * `npm start` does, from the prepared snapshot (migrated, seeded, files attached), which skips
 * initdb, the migrations and the seed in every test file.
 */
export function describeOnEachDatabase(name: string, suite: (demo: () => DemoApp, kind: DatabaseKind) => void, options: Omit<BuildDemoAppOptions, 'database'> = {}): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let demo: DemoApp | undefined;
      let storageRoot: string | undefined;
      beforeAll(async () => {
        storageRoot = await mkdtemp(join(tmpdir(), 'panel-demo-storage-'));
        const database = kind === 'pglite' ? {} : await openTestDatabase(kind);
        demo = await buildDemoApp({ storage: diskStorage({ root: storageRoot }), ...options, database });
        await demo.app.ready();
        await checkResponsesAgainstOpenApi(demo.app);
      });
      afterAll(async () => {
        await demo?.app.close();
        await demo?.database.close();
        if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
      });
      suite(() => {
        if (!demo) throw new Error('the demo app did not start');
        return demo;
      }, kind);
    });
  }
}

/** The document every demo serves (Edition A or B), where a suite that keeps the default mount finds it. */
const DOCUMENT_PATH = '/api/resources/v1/openapi.json';

/**
 * Every response a test receives through `app.inject(options)` is checked against the app's own
 * OpenAPI document (Ajv, JSON Schema 2020-12): an undocumented status, a missing documented
 * header or a body that does not match fails the test that got it. Not checked: paths the
 * document does not describe (panel pages, attachment URLs, unknown URLs), suites that mount
 * the API elsewhere or turn the document off, the chained `app.inject().get()` form, and
 * requests over a real socket.
 */
export async function checkResponsesAgainstOpenApi(app: FastifyInstance): Promise<void> {
  const served = await app.inject({ method: 'GET', url: DOCUMENT_PATH });
  if (served.statusCode !== 200) return;
  const check = openApiResponseChecker(served.json());
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const checked = async (options: { method?: string; url?: string; path?: string }) => {
    const response = await (inject(options) as ReturnType<FastifyInstance['inject']>);
    const url = typeof options === 'string' ? options : (options.url ?? options.path ?? '/');
    const problems = check({ method: (typeof options === 'string' ? 'GET' : options.method) ?? 'GET', url, statusCode: response.statusCode, headers: response.headers, body: response.body });
    if (problems && problems.length > 0) throw new Error(`The response does not match the OpenAPI document:\n${problems.join('\n')}`);
    return response;
  };
  Object.assign(app, { inject: (...args: unknown[]) => (args.length === 1 ? checked(args[0] as never) : inject(...args)) });
}
