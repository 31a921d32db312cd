import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { diskStorage, type DatabaseKind } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildDemoApp, type BuildDemoAppOptions, type DemoApp } from '../src/build-app.js';

/** Authorization headers of the demo's two keys. */
export const ADMIN = { authorization: 'ApiKey demo-admin-key' } as const;
export const READER = { authorization: 'ApiKey demo-reader-key' } as const;

/**
 * Runs a suite once per test database (PGlite and PostgreSQL), each on a freshly migrated and
 * seeded demo app of its own, its files in a temporary storage folder of its own. `demo()`
 * gives the running app inside tests.
 */
export function describeOnEachDatabase(name: string, suite: (demo: () => DemoApp, kind: DatabaseKind) => void, options: Omit<BuildDemoAppOptions, 'database'> = {}): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let demo: DemoApp | undefined;
      let storageRoot: string | undefined;
      beforeAll(async () => {
        storageRoot = await mkdtemp(join(tmpdir(), 'panel-demo-storage-'));
        demo = await buildDemoApp({ storage: diskStorage({ root: storageRoot }), ...options, database: await openTestDatabase(kind) });
        await demo.app.ready();
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
