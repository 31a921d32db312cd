// Issue 46: "Neither the scaffold nor the guide shuts down cleanly: every Ctrl-C leaves PGlite
// unclean (ids jump by 32 on restart)". Ctrl-C reaches tsx and the server it runs, and tsx passes
// it on: the server sees the signal twice. closeOnSignals closes on the first and ignores the
// rest, so the database still closes, and has a bound on the close.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@panel/core';
import { closeOnSignals } from '../src/index.js';

const SERVER = fileURLToPath(new URL('./fixtures/signals/server.ts', import.meta.url));

/** The fixture server on `folder`, with what it printed, its exit, and a wait for a line. */
function startServer(folder: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--conditions=@panel/source', '--import', 'tsx', SERVER, folder], { cwd: dirname(SERVER), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters: (() => void)[] = [];
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const printed = async (text: string) => {
    const deadline = Date.now() + 60_000;
    while (!output.includes(text)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no "${text}" in:\n${output}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { child, exited, printed, output: () => output };
}

/** The id the next book in `folder` takes (the database opened in this process, then closed). */
async function nextBookId(folder: string): Promise<number> {
  const database = await openDatabase({ dataDir: folder });
  try {
    const row = await database.db.insertInto('books' as never).values({ title: 'next' } as never).returning('id' as never).executeTakeFirstOrThrow();
    return (row as { id: number }).id;
  } finally {
    await database.close();
  }
}

describe('closeOnSignals', () => {
  const folders: string[] = [];
  const newFolder = async () => {
    const folder = await mkdtemp(join(tmpdir(), 'panel-signals-'));
    folders.push(folder);
    return folder;
  };
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('a second SIGTERM while the database closes is ignored: the process exits 0 and the next id follows the last (PGlite closed cleanly)', async () => {
    const folder = await newFolder();
    const server = startServer(folder, { CLOSE_DELAY: '500' });
    await server.printed('ready');
    server.child.kill('SIGTERM');
    await server.printed('closing the database');
    server.child.kill('SIGTERM'); // what tsx sends on, Ctrl-C having reached both
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // The server took id 1. Killed before PGlite closed, its sequence would start at 34 here.
    expect(await nextBookId(folder)).toBe(2);
  }, 120_000);

  it('a close that outlasts timeoutMillis exits 1 with a line that names the signal, the bound and the fix', async () => {
    const folder = await newFolder();
    const server = startServer(folder, { CLOSE_DELAY: 'never', CLOSE_TIMEOUT: '300' });
    await server.printed('ready');
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.output()).toContain('Panel: closing on SIGINT took more than 300 ms; exiting before the server and the database closed. Fix: find the request or connection that holds it, or give closeOnSignals a longer timeoutMillis.');
  }, 120_000);

  // The rule: "Misconfiguration fails fast at boot with a message that names the option and the
  // fix." A bound that is not a number (a SHUTDOWN_DRAIN_MS=abc read with Number()) made the drain
  // deadline fire at once: SIGTERM cut every request in flight ("took more than NaN ms", exit 1).
  it('refuses a timeoutMillis that is not a positive whole number of milliseconds when it is called, naming the option and the fix, and listens to no signal', () => {
    const app = { close: async () => undefined };
    const listening = process.listenerCount('SIGTERM');
    for (const timeoutMillis of [Number.NaN, -5, 0, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => closeOnSignals({ app, timeoutMillis })).toThrow(/closeOnSignals: timeoutMillis must be a positive whole number of milliseconds, instead got .*\. Fix: leave it out for 15000/);
    }
    expect(process.listenerCount('SIGTERM')).toBe(listening);
  });
});
