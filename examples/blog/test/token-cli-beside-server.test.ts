// Issue 46, item 6: "The token CLI beside a running PGlite app: grant and token changes while the
// app runs ..., taking effect without a restart." A real Edition B server (src/server-tokens.ts)
// holds a PGlite folder; the real `panel-api token create` and `token revoke` run against the
// same folder while it runs, through the socket the server serves it on. The server answers the
// new token (200), then the revocation (401), with no restart: within the token cache's
// `maxAgeMillis` (1 s), since on PGlite the server hears no other process's notifications.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServerProcess } from './demo-server-process.js';

const DEMO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../../../packages/cli/bin/panel-api.js', import.meta.url));
/** The bound on the revocation reaching the running server: the token cache's `maxAgeMillis` (1 s), with room for a loaded machine. */
const REVOKE_BOUND_MILLIS = 3_000;

/** `panel-api …args` in the demo's folder on the PGlite folder `dataDir`, as a user runs it. */
function panelApi(dataDir: string, args: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'PGLITE_DATA_DIR', 'PANEL_API_TOKEN_PEPPER']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args, '--pglite-dir', dataDir], { cwd: DEMO_ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

async function status(server: DemoServerProcess, secret: string): Promise<number> {
  const response = await fetch(`${server.base}/api/resources/v1/blog_posts?per_page=1`, { headers: { authorization: `Bearer ${secret}` }, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

describe('the token CLI beside a running Edition B server on a PGlite folder', { timeout: 240_000 }, () => {
  let folder: string;
  let server: DemoServerProcess | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'panel-token-cli-'));
    server = await startDemoServer({ PGLITE_DATA_DIR: join(folder, 'pglite') }, 120_000, 'src/server-tokens.ts');
  }, 150_000);

  afterAll(async () => {
    server?.kill();
    await server?.exited;
    await rm(folder, { recursive: true, force: true });
  });

  it('"grant and token changes while the app runs ... taking effect without a restart": a token the CLI creates answers 200, and after the CLI revokes it the same server answers 401 within the bound', async () => {
    const dataDir = join(folder, 'pglite');
    const created = await panelApi(dataDir, ['token', 'create', '--name', 'beside-the-server', '--grant', 'blog_posts:index']);
    expect(created.exitCode, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^pat_\S+$/);
    expect(await status(server!, secret)).toBe(200);

    const listed = await panelApi(dataDir, ['token', 'list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const id = /^(\d+)\s+beside-the-server\s/m.exec(listed.stdout)?.[1];
    expect(id, listed.stdout).toBeDefined();

    // Requests keep the token in the server's cache while the CLI revokes it: the first 401 is the revocation reaching the server.
    let firstRefusal: number | undefined;
    let polling = true;
    const poller = (async () => {
      while (polling && firstRefusal === undefined) {
        if ((await status(server!, secret)) === 401) firstRefusal = performance.now();
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const revoked = await panelApi(dataDir, ['token', 'revoke', id!]);
    const revokedAt = performance.now();
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    while (firstRefusal === undefined && performance.now() - revokedAt < REVOKE_BOUND_MILLIS) await new Promise((resolve) => setTimeout(resolve, 10));
    polling = false;
    await poller;
    expect(firstRefusal, 'no 401 within the bound after the CLI revoked the token').toBeDefined();
    console.log(`the CLI's revoke (its exit) to the server's first 401: ${Math.round(firstRefusal! - revokedAt)} ms`);
    expect(firstRefusal! - revokedAt).toBeLessThanOrEqual(REVOKE_BOUND_MILLIS);
    expect(await status(server!, secret)).toBe(401);
    expect(server!.child.exitCode).toBe(null);
  });
});
