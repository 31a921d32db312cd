// Issue: "A missing base controller crashes the boot with a raw ERR_MODULE_NOT_FOUND (after
// `controller Book --version v3`): the runtime … should name the missing base and say
// `panel-api generate --version v3`."
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanel, type PanelDatabase } from '@panel/core';
import { openTestDatabase } from '@panel/test-support';
import { mountPanelApi } from '../src/index.js';
import { LIBRARY_ROOT, prepareLibrary } from './library-app.js';

const CONTROLLER = `import { BaseResourcesController } from './base-resources-controller.js';

export class BooksController extends BaseResourcesController {
  static override resourceName = 'Book';
}
`;

// Boot only: one database (PGlite) is enough.
describe('booting with a controller whose base controller file is missing', () => {
  let database: PanelDatabase;
  let controllers: string;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await prepareLibrary(database);
    controllers = await mkdtemp(join(tmpdir(), 'panel-missing-base-'));
  });
  afterAll(async () => {
    await database?.close();
    if (controllers) await rm(controllers, { recursive: true, force: true });
  });

  it.each([
    ['v3', ' --version v3'],
    ['v1', ''],
  ])('fails naming the controller, the missing base of %s and the generate command, instead of ERR_MODULE_NOT_FOUND', async (version, flag) => {
    await mkdir(join(controllers, version), { recursive: true });
    await writeFile(join(controllers, version, 'books-controller.ts'), CONTROLLER);
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
    const at = (file: string) => relative(LIBRARY_ROOT, join(controllers, version, file));
    const boot = Fastify().register(mountPanelApi, { panel, controllersDir: controllers }).ready();
    await expect(boot).rejects.toMatchObject({
      code: 'PANEL_API_ERR_CONTROLLER',
      message: `${at('books-controller.ts')}: its base controller ${at('base-resources-controller')}.ts (or .js) does not exist. Fix: run \`panel-api generate${flag}\` to create the BaseResourcesController, or restore the file.`,
    });
    await rm(join(controllers, version), { recursive: true, force: true });
  });

  it('names the file for any other missing import, with the loader\'s own words', async () => {
    await mkdir(join(controllers, 'v2'), { recursive: true });
    await writeFile(join(controllers, 'v2', 'audited-books-controller.ts'), "import { audit } from './audit-log.js';\n\nexport const audited = audit;\n");
    const panel = await createPanel({ database, appRoot: LIBRARY_ROOT });
    const boot = Fastify().register(mountPanelApi, { panel, controllersDir: controllers }).ready();
    await expect(boot).rejects.toThrow(new RegExp(`^${relative(LIBRARY_ROOT, join(controllers, 'v2', 'audited-books-controller.ts')).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot be imported: .*audit-log.*\\. Fix: restore the missing file, or correct the import\\.$`));
    await rm(join(controllers, 'v2'), { recursive: true, force: true });
  });
});
