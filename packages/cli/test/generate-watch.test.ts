import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followLines } from './support/processes.js';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

// Issue 31, item 5: "panel-api generate --watch (and npm run dev using it): regenerates
// controllers and the OpenAPI document when a resource file changes, never touching edited
// files, one line per change." The real bin, a real watcher, a real folder.

const BIN = fileURLToPath(new URL('../bin/panel-api.js', import.meta.url));
const V1 = 'app/controllers/panel/api/resources/v1';

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** The watcher's standard output and error, line by line, and a way to wait for the next lines. */
function watchProcess(root: string, args: readonly string[]) {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'generate', '--watch', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    ...followLines(child, 60_000),
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGINT');
      }),
  };
}

const PUBLISHER = `import { Resource, field } from '@panel/core';

export default class PublisherResource extends Resource {
  override fields() {
    return [field.id(), field.text('name', { required: true })];
  }
}
`;

describe('panel-api generate --watch', () => {
  let root: string;
  let watcher: ReturnType<typeof watchProcess>;

  beforeAll(async () => {
    root = await apps.copy('blog-resources');
    expect((await runPanelApi(['generate', '--root', root])).exitCode).toBe(0);
    // The app keeps its OpenAPI document in the repository (panel-api openapi wrote it).
    expect((await runPanelApi(['openapi', '--root', root])).exitCode).toBe(0);
    watcher = watchProcess(root, []);
    await watcher.until(/^Watching app\/panel\/resources for changes \(Ctrl-C stops\)\.$/, 0);
  }, 90_000);
  afterAll(async () => {
    if (watcher) expect(await watcher.stop()).toBe(0);
  });

  it('a new resource file: its controller is created and the OpenAPI document regenerated, in one line', async () => {
    const from = watcher.lines.length;
    await writeFile(join(root, 'app/panel/resources/publisher.ts'), PUBLISHER);
    const printed = await watcher.until(/changed:/, from);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(
      new RegExp(`^\\[\\d{2}:\\d{2}:\\d{2}\\] app/panel/resources/publisher\\.ts changed: Created PublishersController  ${V1}/publishers-controller\\.ts; Updated openapi/v1\\.json$`),
    );
    expect(await readFile(join(root, V1, 'publishers-controller.ts'), 'utf8')).toContain('class PublishersController');
    expect(JSON.parse(await readFile(join(root, 'openapi/v1.json'), 'utf8')).paths).toHaveProperty('/api/resources/v1/publishers');
  }, 90_000);

  it('a changed resource: a hand-edited controller is never touched; the document follows the resource', async () => {
    const controller = join(root, V1, 'users-controller.ts');
    const edited = `${await readFile(controller, 'utf8')}\n// edited by hand\n`;
    await writeFile(controller, edited);
    const from = watcher.lines.length;
    const user = join(root, 'app/panel/resources/user.ts');
    await writeFile(user, (await readFile(user, 'utf8')).replace("field.text('email', { required: true })", "field.text('email', { required: true }), field.text('nickname')"));
    const printed = await watcher.until(/changed:/, from);
    expect(printed).toEqual([expect.stringMatching(/^\[\d{2}:\d{2}:\d{2}\] app\/panel\/resources\/user\.ts changed: Updated openapi\/v1\.json$/)]);
    expect(await readFile(controller, 'utf8')).toBe(edited);
    expect(JSON.stringify(JSON.parse(await readFile(join(root, 'openapi/v1.json'), 'utf8')).components)).toContain('nickname');
  }, 90_000);

  it('a resource that does not parse: one line on standard error naming the problem, and the watcher goes on', async () => {
    const from = watcher.lines.length;
    const broken = join(root, 'app/panel/resources/broken.ts');
    await writeFile(broken, "import { Resource } from '@panel/core';\nexport default class BrokenResource extends Resource {\n");
    const printed = await watcher.until(/changed:/, from);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] app\/panel\/resources\/broken\.ts changed: not generated: app\/panel\/resources\/broken\.ts:\d+: /);
    const again = watcher.lines.length;
    await writeFile(broken, PUBLISHER.replace('PublisherResource', 'BrokenResource'));
    const fixed = await watcher.until(/changed:/, again);
    expect(fixed).toEqual([expect.stringMatching(/broken\.ts changed: Created BrokensController {2}app\/controllers\/panel\/api\/resources\/v1\/brokens-controller\.ts; Updated openapi\/v1\.json$/)]);
  }, 90_000);
});

describe('panel-api generate --watch, refused combinations', () => {
  it('--watch with --force is a usage error (exit 2): the watcher never overwrites', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--watch', '--force', '--root', root]);
    expect(run).toEqual({ exitCode: 2, out: [], err: ['--watch never overwrites and always writes: it cannot be used with --force or --dry-run.'] });
  });
});
