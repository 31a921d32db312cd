// PGlite is one process at a time: two processes writing one data folder corrupt it. openDatabase
// takes the folder's lock file (panel-pglite.lock, holding the pid) so that the server, the CLI and
// any script share one rule; a second process fails fast with one line naming the folder, the pid
// and the fix. Real processes: the holder is a second Node process (test/support/hold-pglite-folder.ts).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { databaseSetupProblem, isPanelError, openDatabase, pgliteFolderHolder, PgliteFolderInUseError } from '@panel/core';

const HOLDER = fileURLToPath(new URL('./support/hold-pglite-folder.ts', import.meta.url));
const LOCK = 'panel-pglite.lock';

/** A second Node process holding `dataDir` through openDatabase; resolves once it printed "held <pid>". */
async function holder(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; pid: number; send(line: string): Promise<void> }> {
  const child = spawn(process.execPath, ['--conditions=@panel/source', '--import', 'tsx', HOLDER, dataDir], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done || !String(first.value).startsWith('held ')) throw new Error(`the holder did not start: ${stderr}`);
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: Number(String(first.value).slice('held '.length)),
    async send(line) {
      child.stdin.write(`${line}\n`);
      await ended;
    },
  };
}

/** A pid no process has: a process that ran and exited. */
function deadPid(): number {
  const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(gone.stdout.trim());
}

/** The startup error of openDatabase, or undefined when it opened (then it is closed). */
async function openError(dataDir: string): Promise<unknown> {
  try {
    const database = await openDatabase({ dataDir });
    await database.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('a PGlite data folder is opened by one process at a time', { timeout: 120_000 }, () => {
  const parent = mkdtemp(join(tmpdir(), 'panel-pglite-lock-'));
  afterAll(async () => rm(await parent, { recursive: true, force: true }));
  const folder = async (name: string) => join(await parent, name, 'pglite');

  it('while a second Node process holds the folder, openDatabase fails fast with one line naming the folder, the pid and the fix; it opens once the holder closes', async () => {
    const dataDir = await folder('held');
    const held = await holder(dataDir);
    try {
      expect((await readFile(join(dataDir, LOCK), 'utf8')).split('\n')[0]).toBe(String(held.pid));
      const started = Date.now();
      const error = await openError(dataDir);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error).toBeInstanceOf(PgliteFolderInUseError);
      expect(isPanelError(error, 'PANEL_ERR_PGLITE_FOLDER_IN_USE')).toBe(true);
      const message = `The PGlite folder ${dataDir} is in use by process ${held.pid} (a running server?): PGlite is one process at a time. Fix: stop that process, or point this one at PostgreSQL with --database-url / DATABASE_URL.`;
      expect((error as Error).message).toBe(message);
      expect(message).not.toContain('\n');
      expect(error).toMatchObject({ folder: dataDir, pid: held.pid });
      // The server's and the CLI's one-line printer knows it.
      expect(databaseSetupProblem(error)).toBe(message);
      // The refused open left the holder's lock alone.
      expect((await readFile(join(dataDir, LOCK), 'utf8')).split('\n')[0]).toBe(String(held.pid));
    } finally {
      await held.send('close');
    }
    expect(existsSync(join(dataDir, LOCK))).toBe(false);
    const database = await openDatabase({ dataDir });
    try {
      expect((await readFile(join(dataDir, LOCK), 'utf8')).split('\n')[0]).toBe(String(process.pid));
      await database.db.schema.createTable('notes').addColumn('body', 'text').execute();
    } finally {
      await database.close();
    }
    expect(existsSync(join(dataDir, LOCK))).toBe(false);
  });

  it('"the socket is only reachable by the same OS user ..., closed on shutdown": the holder records, under its pid, a folder of its own (mode 0700) with the socket (mode 0600); a pg client through it reads the holder\'s database; close removes the folder', async () => {
    const dataDir = await folder('served');
    const held = await holder(dataDir);
    let socketFolder: string;
    try {
      const [pid, recorded] = (await readFile(join(dataDir, LOCK), 'utf8')).split('\n');
      expect(pid).toBe(String(held.pid));
      socketFolder = recorded!;
      expect((await stat(socketFolder)).mode & 0o777).toBe(0o700);
      expect((await stat(join(socketFolder, '.s.PGSQL.5432'))).mode & 0o777).toBe(0o600);
      expect(await pgliteFolderHolder(dataDir)).toEqual({ pid: held.pid, socketFolder });
      const client = new pg.Client({ host: socketFolder, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        await client.query('create table served (n int)');
        await client.query('begin');
        await client.query('insert into served values ($1)', [7]);
        await client.query('commit');
        expect((await client.query('select n from served')).rows).toEqual([{ n: 7 }]);
      } finally {
        await client.end();
      }
    } finally {
      await held.send('close');
    }
    await expect(stat(socketFolder)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await pgliteFolderHolder(dataDir)).toBeUndefined();
    const database = await openDatabase({ dataDir });
    try {
      expect((await sql<{ n: number }>`select n from served`.execute(database.db)).rows).toEqual([{ n: 7 }]);
    } finally {
      await database.close();
    }
  });

  it('a process that exits without closing releases the folder on its way out', async () => {
    const dataDir = await folder('exited');
    const held = await holder(dataDir);
    await held.send('exit');
    expect(existsSync(join(dataDir, LOCK))).toBe(false);
    expect(await openError(dataDir)).toBeUndefined();
  });

  it('a lock left by a killed process (its pid no longer runs) is taken over, and the data is intact', async () => {
    const dataDir = await folder('killed');
    const first = await openDatabase({ dataDir });
    await first.db.schema.createTable('notes').addColumn('body', 'text').execute();
    await first.db.insertInto('notes').values({ body: 'kept' }).execute();
    await first.close();
    const held = await holder(dataDir);
    await held.send('crash');
    expect((await readFile(join(dataDir, LOCK), 'utf8')).split('\n')[0]).toBe(String(held.pid));
    const again = await openDatabase({ dataDir });
    try {
      expect((await readFile(join(dataDir, LOCK), 'utf8')).split('\n')[0]).toBe(String(process.pid));
      expect(await again.db.selectFrom('notes').select('body').execute()).toEqual([{ body: 'kept' }]);
    } finally {
      await again.close();
    }
  });

  it('a stale lock naming a dead pid, or holding no pid at all, is taken over', async () => {
    for (const [name, content] of [['dead-pid', `${deadPid()}\n`], ['empty', '']] as const) {
      const dataDir = await folder(name);
      await mkdir(dataDir, { recursive: true });
      await writeFile(join(dataDir, LOCK), content);
      expect(await openError(dataDir), name).toBeUndefined();
      expect(existsSync(join(dataDir, LOCK)), name).toBe(false);
    }
  });

  it('within one process, a second open of a folder that is open (by its path or through a symlink) fails the same way, naming this process; close releases it', async () => {
    const dataDir = await folder('same-process');
    const database = await openDatabase({ dataDir });
    try {
      const error = await openError(dataDir);
      expect(isPanelError(error, 'PANEL_ERR_PGLITE_FOLDER_IN_USE')).toBe(true);
      expect((error as PgliteFolderInUseError).pid).toBe(process.pid);
      // The same folder by another name (a symlink) is the same folder.
      const link = join(await parent, 'same-process-link');
      await symlink(dataDir, link);
      expect(isPanelError(await openError(link), 'PANEL_ERR_PGLITE_FOLDER_IN_USE')).toBe(true);
    } finally {
      await database.close();
    }
    expect(await openError(dataDir)).toBeUndefined();
  });

  it('names the folder relative to the working directory when it is inside it (data/pglite, as the CLI and the scaffolded app use it)', () => {
    expect(new PgliteFolderInUseError('data/pglite', 1234).message).toBe(
      'The PGlite folder data/pglite is in use by process 1234 (a running server?): PGlite is one process at a time. Fix: stop that process, or point this one at PostgreSQL with --database-url / DATABASE_URL.',
    );
  });

  it('in-memory PGlite takes no lock: two in-memory databases open side by side', async () => {
    const [one, two] = await Promise.all([openDatabase(), openDatabase({ dataDir: 'memory://' })]);
    try {
      expect((await one.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute())[0]).toEqual({ one: 1 });
      expect((await two.db.selectNoFrom((eb) => eb.lit(2).as('two')).execute())[0]).toEqual({ two: 2 });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
