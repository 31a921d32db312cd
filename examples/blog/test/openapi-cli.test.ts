import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@panel/api-cli';
import { APP_ROOT } from '../src/build-app.js';

const GOLDEN = fileURLToPath(new URL('../openapi/v1.json', import.meta.url));

async function panelApi(argv: readonly string[]): Promise<{ exitCode: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { exitCode, out, err };
}

describe('panel-api openapi on the demo ("writes the same document without a database"; "--check fails when the committed file is stale")', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'panel-openapi-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes byte for byte the document the running demo serves (the committed openapi/v1.json)', async () => {
    const out = join(dir, 'v1.json');
    const run = await panelApi(['openapi', '--root', APP_ROOT, '--version', 'v1', '--out', out]);
    expect(run).toMatchObject({ exitCode: 0, err: [] });
    expect(await readFile(out, 'utf8')).toBe(await readFile(GOLDEN, 'utf8'));
  });

  it('--check passes on the committed file and fails, naming the fix, on a stale one', async () => {
    expect((await panelApi(['openapi', '--root', APP_ROOT, '--check'])).exitCode).toBe(0);
    const stale = join(dir, 'stale.json');
    await writeFile(stale, (await readFile(GOLDEN, 'utf8')).replace('listBlogPosts', 'listPosts'));
    const run = await panelApi(['openapi', '--root', APP_ROOT, '--check', '--out', stale]);
    expect(run.exitCode).toBe(1);
    expect(run.err.join('\n')).toMatch(/stale\.json is stale: .* Fix: run `panel-api openapi --version v1` and commit the file\./);
    expect(await readFile(stale, 'utf8')).toContain('listPosts');
  });

  it('refuses a version the app does not serve', async () => {
    const run = await panelApi(['openapi', '--root', APP_ROOT, '--version', 'v9', '--check']);
    expect(run.exitCode).toBe(1);
    expect(run.err.join('\n')).toMatch(/No routes in v9/);
  });
});
