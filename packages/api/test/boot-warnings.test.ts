// Issue: "An app started before `panel-api generate` boots silently and answers 404 everywhere;
// so does a resource added later without its controller. Only `panel-api routes` explains it."
// The fix: "at boot, a mount with no controllers logs the CLI's 'No routes … run `panel-api
// generate`' and a resource without a controller is named".
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, runMigrations, type PanelDatabase } from '@panel/core';
import { apiTokensSchemaV1, apiTokensSchemaV2, configurePanelApi, MISSING_DIGEST_INDEX_WARNING } from '@panel/api-tokens';
import { openTestDatabase } from '@panel/test-support';
import { mountPanelApi } from '../src/index.js';
import { LIBRARY_ROOT, prepareLibrary } from './library-app.js';

const BASE = "import { ResourcesController } from '@panel/api';\n\nexport class BaseResourcesController extends ResourcesController {}\n";
const AUTHORS = "import { BaseResourcesController } from './base-resources-controller.js';\n\nexport class AuthorsController extends BaseResourcesController {\n  static override resourceName = 'Author';\n}\n";
const BOOKS = "import { BaseResourcesController } from './base-resources-controller.js';\n\nexport class BooksController extends BaseResourcesController {\n  static override resourceName = 'Book';\n}\n";

/** The process warnings emitted while `during` runs. */
async function processWarnings(during: () => PromiseLike<unknown>): Promise<{ code?: string; message: string }[]> {
  const seen: { code?: string; message: string }[] = [];
  const listener = (warning: Error & { code?: string }) => seen.push({ code: warning.code, message: warning.message });
  process.on('warning', listener);
  try {
    await during();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen.filter((warning) => warning.code === 'PANEL_WARN_NO_ROUTES' || warning.code === 'PANEL_WARN_MISSING_CONTROLLER');
}

/** A controllers folder inside the fixture app (gitignored), where `@panel/api` resolves. */
const scratch = (name: string) => mkdtemp(join(LIBRARY_ROOT, 'app', 'controllers', 'panel', 'api', `.tmp-${name}-`));

// Boot only: one database (PGlite) is enough.
describe('boot warnings about controllers (Edition A)', () => {
  let database: PanelDatabase;
  let controllers: string;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await prepareLibrary(database);
  });
  afterAll(async () => {
    await database?.close();
  });
  afterEach(async () => {
    if (controllers) await rm(controllers, { recursive: true, force: true });
  });

  it('"a mount with no controllers logs the CLI\'s No routes … run `panel-api generate`" (a process warning without a logger)', async () => {
    controllers = await scratch('no-controllers');
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
    const app = Fastify();
    const warnings = await processWarnings(() => app.register(mountPanelApi, { panel, controllersDir: controllers }).ready());
    expect(warnings).toEqual([
      {
        code: 'PANEL_WARN_NO_ROUTES',
        message: `Panel API: No routes: ${relative(LIBRARY_ROOT, controllers)} holds no controllers, so the API answers 404 everywhere. Run \`panel-api generate\` to create them.`,
      },
    ]);
    await app.close();
  });

  it('"a resource without a controller is named", in the app\'s log when it has a logger, with the version\'s generate command', async () => {
    controllers = await scratch('missing-controller');
    for (const version of ['v1', 'v2']) {
      await mkdir(join(controllers, version));
      await writeFile(join(controllers, version, 'base-resources-controller.ts'), BASE);
      await writeFile(join(controllers, version, 'books-controller.ts'), BOOKS);
    }
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
    const others = [...panel.resources.keys()].filter((name) => name !== 'Book');
    expect(others.length).toBeGreaterThan(0);
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { level: 'warn', stream } });
    const warnings = await processWarnings(() => app.register(mountPanelApi, { panel, controllersDir: controllers }).ready());
    expect(warnings).toEqual([]);
    const logged = lines.map((line) => JSON.parse(line) as { level: number; code: string; msg: string });
    const dir = relative(LIBRARY_ROOT, controllers);
    const names = others.length === 1 ? `the resource ${others[0]} has` : `the resources ${others.join(', ')} have`;
    const them = others.length === 1 ? 'it' : 'them';
    expect(logged.filter((line) => line.code === 'PANEL_WARN_MISSING_CONTROLLER').map(({ level, code, msg }) => ({ level, code, msg }))).toEqual([
      { level: 40, code: 'PANEL_WARN_MISSING_CONTROLLER', msg: `Panel API: ${names} no controller in ${dir}/v1, so the API answers 404 for ${them} there. Fix: run \`panel-api generate\`.` },
      { level: 40, code: 'PANEL_WARN_MISSING_CONTROLLER', msg: `Panel API: ${names} no controller in ${dir}/v2, so the API answers 404 for ${them} there. Fix: run \`panel-api generate --version v2\`.` },
    ]);
    await app.close();
  });

  it('says nothing when every resource has its controller', async () => {
    controllers = await scratch('every-controller');
    await mkdir(join(controllers, 'v1'));
    await writeFile(join(controllers, 'v1', 'base-resources-controller.ts'), BASE);
    await writeFile(join(controllers, 'v1', 'books-controller.ts'), BOOKS);
    await writeFile(join(controllers, 'v1', 'authors-controller.ts'), AUTHORS);
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
    expect([...panel.resources.keys()].sort()).toEqual(['Author', 'Book']);
    const app = Fastify();
    const warnings = await processWarnings(() => app.register(mountPanelApi, { panel, controllersDir: controllers }).ready());
    expect(warnings).toEqual([]);
    await app.close();
  });
});

describe('boot warning about an empty default permissions list (Edition B)', () => {
  let database: PanelDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await prepareLibrary(database);
    await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1 });
  });
  afterAll(async () => {
    await database?.close();
  });

  const boot = async (code = 'PANEL_WARN_EMPTY_DEFAULT_PERMISSIONS', controllersDir?: string) => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
    const app = Fastify({ logger: { level: 'warn', stream } });
    await app.register(mountPanelApi, { panel, tokens: configurePanelApi({ pepper: 'p'.repeat(40) }), ...(controllersDir ? { controllersDir } : {}) }).ready();
    const warned = lines.map((line) => JSON.parse(line) as { code?: string; msg: string }).filter((line) => line.code === code);
    return { app, warned };
  };

  it('"the log says at boot when the default permissions list is empty (code-hook requests will get 403)", and not once it has a grant', async () => {
    const first = await boot();
    expect(first.warned.map((line) => line.msg)).toEqual([
      "Panel API Edition B: the default permissions list is empty, so requests on the code-hook path (the base controller's setupAuthentication, without a token) get 403. Fix: grant index/show per resource on the panel's default permissions screen, or await app.panelApiTokens.setDefaultPermissions(['books:index', …]).",
    ]);
    await first.app.panelApiTokens!.setDefaultPermissions(['books:index']);
    await first.app.close();
    const second = await boot();
    expect(second.warned).toEqual([]);
    await second.app.close();
  });

  it('"empty only when it matters" (issue 46, item 4): says nothing when every served controller keeps the closed setupAuthentication (an app that serves tokens only, like the Edition B scaffold), though the list is empty', async () => {
    const controllers = await scratch('token-only');
    try {
      await mkdir(join(controllers, 'v1'));
      await writeFile(join(controllers, 'v1', 'base-resources-controller.ts'), BASE);
      await writeFile(join(controllers, 'v1', 'books-controller.ts'), BOOKS);
      await database.db.deleteFrom('panel_api_permission_grants' as never).where('token_id' as never, 'is', null).execute();
      const tokenOnly = await boot(undefined, controllers);
      expect(await tokenOnly.app.panelApiTokens!.defaultPermissions()).toEqual([]);
      expect(tokenOnly.warned).toEqual([]);
      await tokenOnly.app.close();
    } finally {
      await rm(controllers, { recursive: true, force: true });
    }
  });

  it('says at boot when the tokens table has no digest index (an install from before apiTokensSchemaV2), naming the fix, and not once the index is there', async () => {
    const first = await boot(MISSING_DIGEST_INDEX_WARNING);
    expect(first.warned.map((line) => line.msg)).toEqual([
      'Panel API Edition B: the tokens table has no digest index (apiTokensSchemaV2), so every token lookup reads the whole panel_api_tokens table. Fix: run `panel-api install` (it adds the migration), then run your migrations.',
    ]);
    await first.app.close();
    await runMigrations(database, { '0001-create-panel-api-tokens': apiTokensSchemaV1, '0002-index-panel-api-token-digests': apiTokensSchemaV2 });
    const second = await boot(MISSING_DIGEST_INDEX_WARNING);
    expect(second.warned).toEqual([]);
    await second.app.close();
  });
});
