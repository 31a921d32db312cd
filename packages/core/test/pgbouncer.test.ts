// Panel behind PgBouncer in transaction mode (docs/scaling.md#postgresql-connections): "a pooler
// in transaction mode (such as PgBouncer) can sit in front of the server". A real PgBouncer,
// installed by scripts/ensure-pgbouncer.sh when missing, started by the test on a free port in
// front of the suite's PostgreSQL. PostgreSQL only.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, runMigrations, type PanelDatabase } from '@panel/core';
import { acceptsConnections, createTestSchema, ensureTool, freePort, testDatabaseKinds } from '@panel/test-support';

/** A PgBouncer in transaction mode, two server connections, in front of the database at `url`. */
async function startPgbouncer(binary: string, url: string, ignore: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const target = new URL(url);
  const user = decodeURIComponent(target.username) || 'postgres';
  const database = target.pathname.slice(1);
  const dir = await mkdtemp(join(tmpdir(), 'panel-pgbouncer-'));
  const port = await freePort();
  await writeFile(join(dir, 'users.txt'), `"${user}" ""\n`);
  await writeFile(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir =`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 100',
      `ignore_startup_parameters = ${ignore}`,
    ].join('\n'),
  );
  // PgBouncer will not run as root: it is told to switch to `nobody` then (it writes no file here).
  await chmod(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (!(await acceptsConnections(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`PgBouncer did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.runIf(testDatabaseKinds().includes('postgres'))('Panel behind PgBouncer in transaction mode [postgres]', () => {
  let binary: string;
  let schema: string;
  let directUrl: string;
  let dropSchema: () => Promise<void>;
  beforeAll(async () => {
    binary = await ensureTool('ensure-pgbouncer.sh', 'The PgBouncer suite');
    ({ url: directUrl, schema, drop: dropSchema } = await createTestSchema());
  }, 300_000);
  afterAll(async () => dropSchema?.());

  it('"unsupported startup parameter": PgBouncer as installed refuses statement_timeout, and Panel says which setting fixes it', async () => {
    const pooler = await startPgbouncer(binary, directUrl, 'extra_float_digits');
    const database = await openDatabase({ url: pooler.url });
    try {
      await expect(runMigrations(database, {})).rejects.toMatchObject({
        code: 'PANEL_ERR_CONFIG',
        message: expect.stringMatching(/^The connection pooler at DATABASE_URL \(such as PgBouncer\) refused the startup parameter statement_timeout, .* Fix: add statement_timeout to the pooler's ignore_startup_parameters /),
      });
    } finally {
      await database.close();
      await pooler.stop();
    }
  });

  it("with the documented settings, transactions through two server connections stay whole: one transaction per callback (its begin sent with its first statement), a failure rolls it all back", async () => {
    const pooler = await startPgbouncer(binary, directUrl, 'extra_float_digits, statement_timeout, options');
    // No `schema`: PgBouncer ignores `options`, so the table is named with its schema here.
    const database: PanelDatabase = await openDatabase({ url: pooler.url, maxConnections: 6 });
    const table = sql.table(`${schema}.pooled`);
    try {
      await sql`create table ${table} (id integer primary key, name text)`.execute(database.db);
      const xid = (db: PanelDatabase['db']) => sql<{ xid: string }>`select txid_current()::text as xid where ${1} = 1`.execute(db).then((r) => r.rows[0]!.xid);
      const outcomes = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          database.db
            .transaction()
            .execute(async (trx) => {
              const first = await xid(trx);
              await sql`insert into ${table} values (${i}, ${`post ${i}`})`.execute(trx);
              // One in ten inserts its id again: the whole transaction rolls back.
              if (i % 10 === 0) await sql`insert into ${table} values (${i}, 'again')`.execute(trx);
              return first === (await xid(trx)) ? 'one transaction' : 'split';
            })
            .catch((error: { code?: string }) => error.code),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === 'one transaction')).toHaveLength(54);
      expect(outcomes.filter((outcome) => outcome === '23505')).toHaveLength(6);
      const { rows } = await sql<{ id: number }>`select id from ${table} order by id`.execute(database.db);
      expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 10 !== 0));
      // Outside a transaction each statement is its own: nothing held over from a callback.
      expect(await xid(database.db)).not.toBe(await xid(database.db));
    } finally {
      await database.close();
      await pooler.stop();
    }
  });
});
