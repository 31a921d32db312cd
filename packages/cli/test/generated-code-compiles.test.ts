import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { typecheckApp } from './support/run-tsc.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const V1 = 'app/controllers/panel/api/resources/v1';

// Inside the repository, so that the generated imports of @panel/api resolve through its node_modules.
const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

describe('the generated code under the project\'s strict tsconfig', () => {
  it('typechecks: tsc -p exits 0 on an app after panel-api generate, for v1 and for --version v2', async () => {
    const root = await apps.copy('blog-resources');
    expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
    expect((await runPanelApi(['generate', '--version', 'v2', '--root', root])).exitCode).toBe(0);
    const tsc = await typecheckApp(root);
    expect(tsc.output).toBe('');
    expect(tsc.exitCode).toBe(0);
  });

  it('can fail: a controller without `override` on resourceName (noImplicitOverride) makes tsc exit non-zero', async () => {
    const root = await apps.copy('blog-resources');
    expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
    await writeFile(
      join(root, V1, 'broken-controller.ts'),
      `import { BaseResourcesController } from './base-resources-controller.js';\n\nexport class BrokenController extends BaseResourcesController {\n  static resourceName = 'User';\n}\n`,
    );
    const tsc = await typecheckApp(root);
    expect(tsc.exitCode).not.toBe(0);
    expect(tsc.output).toContain(`${V1}/broken-controller.ts(4,10): error TS4114`);
    expect(await listFiles(root, V1)).toContain(`${V1}/broken-controller.ts`);
  });

  it('can fail: a controller whose base controller was never generated (controllers alone) does not typecheck', async () => {
    const root = await apps.copy('blog-resources');
    expect((await runPanelApi(['controller', 'User', '--root', root])).exitCode).toBe(0);
    const tsc = await typecheckApp(root);
    expect(tsc.exitCode).not.toBe(0);
    expect(tsc.output).toContain(`${V1}/users-controller.ts(1,41): error TS2307: Cannot find module './base-resources-controller.js'`);
  });
});
