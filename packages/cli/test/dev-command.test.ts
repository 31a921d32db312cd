import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@panel/test-support';
import { cleanEnv, followLines } from './support/processes.js';
import { runPanelApi } from './support/run-panel-api.js';
import { IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

// Issue 46, item 2: "panel-api dev: one command that watches resources, policies, field types
// and controllers, regenerates, and restarts the server on any change, including an added file;
// prints what changed and the first error with its file:line and fix". The real bin on a real
// folder, the app's real server (tsx, PGlite) answering real HTTP.

const BIN = fileURLToPath(new URL('../bin/panel-api.js', import.meta.url));
const V1 = 'app/controllers/panel/api/resources/v1';

const apps = tempApps(IN_REPO_TMP_PARENT);
afterAll(() => apps.removeAll());

/** `panel-api dev` in `root`: its lines (its own and the server's), and a way to wait for one. */
function devProcess(root: string, port: number) {
  // The in-repo app resolves @panel/* to their sources, as the repository's own runs do.
  const child = spawn(process.execPath, [BIN, 'dev'], { cwd: root, env: cleanEnv({ PORT: String(port), NODE_OPTIONS: '--conditions=@panel/source' }), stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    ...followLines(child, 90_000),
    stop: () =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
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

describe('panel-api dev', { timeout: 120_000 }, () => {
  let root: string;
  let base: string;
  let dev: ReturnType<typeof devProcess>;
  const list = async (route: string) => {
    const answer = await fetch(`${base}/api/resources/v1/${route}`);
    return { status: answer.status, body: (await answer.json()) as { records?: { name: string }[] } };
  };

  beforeAll(async () => {
    root = await apps.copy('dev-app');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dev = devProcess(root, port);
    const started = await dev.until(/^Dev app \d+ on http/, 0);
    // It generated what was missing before the first start, then started the server and watches the app's folders.
    expect(started).toContain(`✓ Created AuthorsController  ${V1}/authors-controller.ts`);
    expect(started).toContain('Watching app, src for changes (Ctrl-C stops).');
  }, 120_000);
  afterAll(async () => {
    if (dev) expect(await dev.stop()).toBe(0);
  });

  it('a resource file added while it runs: its controller is generated, the server restarted (the old one closed first), and its list answered', async () => {
    expect((await list('authors')).body.records).toEqual([expect.objectContaining({ name: 'Ursula' })]);
    expect((await list('publishers')).status).toBe(404);
    const oldPid = /^Dev app (\d+)/.exec(dev.lines.find((line) => line.startsWith('Dev app'))!)![1];
    const from = dev.lines.length;
    await writeFile(join(root, 'app/panel/resources/publisher.ts'), PUBLISHER);
    const printed = await dev.until(/^Dev app \d+ on http/, from);
    expect(printed[0]).toMatch(new RegExp(`^\\[\\d{2}:\\d{2}:\\d{2}\\] app/panel/resources/publisher\\.ts changed: Created PublishersController  ${V1}/publishers-controller\\.ts; restarting the server$`));
    // The generated controller is the tool's own write: it does not restart the server a second time.
    expect(printed.filter((line) => line.includes('changed:'))).toHaveLength(1);
    expect(printed.indexOf(`closing the server ${oldPid}`)).toBeGreaterThan(0);
    expect(printed.indexOf(`closing the server ${oldPid}`)).toBeLessThan(printed.findIndex((line) => line.startsWith('Dev app')));
    expect((await list('publishers')).body.records).toEqual([expect.objectContaining({ name: 'Ace Books' })]);
  });

  it('a field-builder typo: the first problem with its file:line and fix, as generate --check says it; the server keeps serving the last good version', async () => {
    const author = join(root, 'app/panel/resources/author.ts');
    const good = await readFile(author, 'utf8');
    const from = dev.lines.length;
    await writeFile(author, good.replace("field.text('name'", "field.txet('name'"));
    const printed = await dev.until(/changed:/, from);
    expect(printed.find((line) => line.includes('changed:'))).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\] app\/panel\/resources\/author\.ts changed: not restarted: app\/panel\/resources\/author\.ts:6: Resource Author: field\.txet\('name'\) is not a field builder\. Did you mean field\.text\? Fix: use one of field\.\w+.* 1 problem\. Fix: correct each file at the line shown\. The server keeps serving the last good version\.$/,
    );
    expect((await list('authors')).body.records).toEqual([expect.objectContaining({ name: 'Ursula' })]);
    const again = dev.lines.length;
    await writeFile(author, good);
    expect((await dev.until(/^Dev app \d+ on http/, again))[0]).toMatch(/author\.ts changed: restarting the server$/);
    expect((await list('authors')).status).toBe(200);
  });

  it('a server that crashes at boot: one line with the first error at its file:line; it starts again at the next change', async () => {
    const server = join(root, 'src/server.ts');
    const good = await readFile(server, 'utf8');
    const from = dev.lines.length;
    await writeFile(server, good.replace('const panel = await createPanel', "throw new Error('the seed failed');\nconst panel = await createPanel"));
    const printed = await dev.until(/The server stopped/, from);
    const line = printed.findIndex((text) => text.includes('The server stopped'));
    expect(printed[line]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] The server stopped \(exit code 1\): Error: the seed failed \(src\/server\.ts:14\)\. It starts again at the next change\.$/);
    await expect(fetch(`${base}/api/resources/v1/authors`)).rejects.toThrow();
    const again = dev.lines.length;
    await writeFile(server, good);
    expect((await dev.until(/^Dev app \d+ on http/, again))[0]).toMatch(/src\/server\.ts changed: starting the server$/);
    expect((await list('authors')).status).toBe(200);
  });

  // docs/generators.md: "A server that exits on its own is one line: its exit, its first error
  // and the first line of the app's own code in the stack." An error whose first line is a
  // heading (it ends with ':') is told with the line under it: the problem itself.
  it.each([
    ['a syntax error', (good: string) => good.replace('const panel = await createPanel', 'const broken = ;\nconst panel = await createPanel'), /The server stopped \(exit code 1\): Error(?: \[TransformError\])?: Transform failed with 1 error: src\/server\.ts:14:\d+: ERROR: Unexpected ";"\. It starts again at the next change\.$/],
    [
      'a missing table',
      (good: string) => good.replaceAll("'publishers'", "'publishers_elsewhere'"),
      /The server stopped \(exit code 1\): PanelConfigError: The database does not match the resources: Resource Publisher: the table "publishers" does not exist\. Fix: create it \(a migration\), or set static table to the table that holds the records\. It starts again at the next change\.$/,
    ],
  ])('a server that stops on %s: the error under its heading line, in the one line', async (_, edit, expected) => {
    const server = join(root, 'src/server.ts');
    const good = await readFile(server, 'utf8');
    const from = dev.lines.length;
    await writeFile(server, edit(good));
    try {
      const printed = await dev.until(/The server stopped/, from);
      expect(printed.find((text) => text.includes('The server stopped'))).toMatch(expected);
    } finally {
      const again = dev.lines.length;
      await writeFile(server, good);
      expect((await dev.until(/^Dev app \d+ on http/, again))[0]).toMatch(/src\/server\.ts changed: starting the server$/);
    }
  });
});

describe('panel-api dev, refused', () => {
  it('an app without a server entry: one line naming what it looked for and the fix (exit 2)', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['dev', '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toEqual([
      `No server entry in ${root} (looked for src/server.ts, src/server.mts, src/server.js, src/server.mjs). Fix: name it with --server <file>, or give the command after -- (panel-api dev -- node server.js).`,
    ]);
  });
});
