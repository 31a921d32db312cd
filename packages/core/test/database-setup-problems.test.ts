// Issue: "A DATABASE_URL naming a missing database gives a 30-line pg stack (3D000), no fix."
// The fix: "a missing database, refused connection, wrong password or missing migration → one
// line with what is wrong and the command that fixes it (e.g. `createdb shop`)".
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseSetupProblem, openDatabase, runMigrations, runPanelMigrations, type PanelDatabase } from '@panel/core';
import { testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const onPostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

onPostgres('database setup mistakes at boot, one line with the fix [postgres]', () => {
  const opened: PanelDatabase[] = [];
  const open = async (url: string) => {
    const database = await openDatabase({ url });
    opened.push(database);
    return database;
  };
  afterAll(async () => {
    await Promise.all(opened.map((database) => database.close()));
  });

  it('"a DATABASE_URL naming a missing database" → Database "…" does not exist … Fix: createdb …', async () => {
    const url = new URL(testDatabaseUrl());
    const name = `panel_missing_${process.pid}`;
    url.pathname = `/${name}`;
    const database = await open(url.toString());
    const failure = runPanelMigrations(database);
    await expect(failure).rejects.toMatchObject({
      code: 'PANEL_ERR_CONFIG',
      message: `Database "${name}" does not exist on the PostgreSQL server DATABASE_URL names. Fix: createdb ${name} (or CREATE DATABASE ${name}; as a superuser), or point DATABASE_URL at an existing database.`,
    });
    await expect(failure).rejects.toSatisfy((error: Error) => !error.message.includes('\n'));
  });

  it('"refused connection" → Nothing answers at host:port … Fix: start PostgreSQL …', async () => {
    const port = await freePort();
    const database = await open(`postgres://postgres@127.0.0.1:${port}/shop`);
    await expect(runMigrations(database, {})).rejects.toMatchObject({
      code: 'PANEL_ERR_CONFIG',
      message: `Nothing answers at 127.0.0.1:${port}: the PostgreSQL server DATABASE_URL names is not running there. Fix: start PostgreSQL (or correct the host and port in DATABASE_URL), or unset DATABASE_URL to use the embedded PGlite.`,
    });
  });
});

/**
 * A stand-in for PgBouncer's refusal, on the wire: it reads the startup packet and answers the
 * first parameter PgBouncer 1.18 does not accept by default with the FATAL it sends (observed:
 * `08P01 unsupported startup parameter: statement_timeout`), then closes.
 */
async function refusingPooler(): Promise<{ url: (path: string) => string; close: () => Promise<void> }> {
  const tracked = new Set(['user', 'database', 'application_name', 'client_encoding', 'DateStyle', 'TimeZone', 'standard_conforming_strings', 'extra_float_digits']);
  const server = createServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4 || received.length < received.readInt32BE(0)) return;
      const fields = received.subarray(8, received.readInt32BE(0)).toString('utf8').split('\0');
      const refused = fields.filter((_, i) => i % 2 === 0).find((name) => name !== '' && !tracked.has(name)) ?? 'none';
      const body = Buffer.from(`SFATAL\0C08P01\0Munsupported startup parameter: ${refused}\0\0`, 'utf8');
      const header = Buffer.alloc(5);
      header.write('E', 0);
      header.writeInt32BE(4 + body.length, 1);
      socket.end(Buffer.concat([header, body]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: (path) => `postgres://postgres@127.0.0.1:${port}/${path}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a connection pooler that refuses a startup parameter Panel sends (PgBouncer in transaction mode)', () => {
  it.each([
    {
      parameter: 'statement_timeout',
      sentFor: 'statementTimeoutMillis, with its default',
      options: {},
      message:
        "The connection pooler at DATABASE_URL (such as PgBouncer) refused the startup parameter statement_timeout, which Panel sends for statementTimeoutMillis. Fix: add statement_timeout to the pooler's ignore_startup_parameters and give the app's role the same setting on the PostgreSQL server (ALTER ROLE <user> SET statement_timeout = '<statementTimeoutMillis>ms' (10000 by default)), or point DATABASE_URL at PostgreSQL itself.",
    },
    {
      parameter: 'options',
      sentFor: 'schema',
      options: { schema: 'shop', statementTimeoutMillis: 0 },
      message:
        "The connection pooler at DATABASE_URL (such as PgBouncer) refused the startup parameter options, which Panel sends for schema (-c search_path=<schema>). Fix: add options to the pooler's ignore_startup_parameters and give the app's role the same setting on the PostgreSQL server (ALTER ROLE <user> SET search_path = <schema>), or point DATABASE_URL at PostgreSQL itself.",
    },
  ])('"$parameter" (sent for $sentFor) → one line naming the parameter, the pooler setting and the role setting', async ({ options, message }) => {
    const pooler = await refusingPooler();
    const database = await openDatabase({ url: pooler.url('shop'), ...options });
    try {
      await expect(runMigrations(database, {})).rejects.toMatchObject({ code: 'PANEL_ERR_CONFIG', message });
    } finally {
      await database.close();
      await pooler.close();
    }
  });
});

/**
 * A stand-in PostgreSQL server on the wire, for what the test server cannot be made to do: it
 * answers a TLS request `N` (a server without `ssl = on`), then, to the startup packet, a FATAL
 * with `code` (`53300`: no connection slot left), or nothing at all (`silent`: a frozen server).
 */
async function fakeServer(startup: { code: string; message: string } | 'silent'): Promise<{ url: (query?: string) => string; close: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 8 && received.readInt32BE(0) === 8 && received.readInt32BE(4) === 80877103) {
        received = received.subarray(8);
        socket.write('N');
        return;
      }
      if (received.length < 4 || received.length < received.readInt32BE(0) || startup === 'silent') return;
      const body = Buffer.from(`SFATAL\0C${startup.code}\0M${startup.message}\0\0`, 'utf8');
      const header = Buffer.alloc(5);
      header.write('E', 0);
      header.writeInt32BE(4 + body.length, 1);
      socket.end(Buffer.concat([header, body]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (query = '') => `postgres://postgres@127.0.0.1:${port}/shop${query}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// The rule: "Misconfiguration fails fast at boot with a message that names the option and the
// fix." These gave a driver's stack (or Node's TypeError) and nothing to do about it.
describe('more setup mistakes at boot: one line naming the option and the fix, never a secret', () => {
  it('a url that cannot be read (a port past 65535) is refused by openDatabase itself, naming DATABASE_URL, without its password', async () => {
    for (const url of ['postgres://shop:s3cr3t@127.0.0.1:99999/shop', 'postgres://shop:s3cr3t@127.0.0.1:port/shop']) {
      const failure = openDatabase({ url });
      await expect(failure).rejects.toMatchObject({ code: 'PANEL_ERR_CONFIG' });
      await expect(failure).rejects.toThrow(/^Database url cannot be read as a PostgreSQL URL.*Fix: .*DATABASE_URL/);
      await expect(failure).rejects.toSatisfy((error: Error) => !error.message.includes('s3cr3t') && !error.message.includes('\n'));
    }
  });

  it('a url that is not a PostgreSQL one is refused without echoing its password', async () => {
    for (const url of ['postgres//shop:s3cr3t@127.0.0.1:5432/shop', 'mysql://shop:s3cr3t@127.0.0.1/shop']) {
      const failure = openDatabase({ url });
      await expect(failure).rejects.toThrow(/^Database url must start with postgres:\/\/ or postgresql:\/\//);
      await expect(failure).rejects.toSatisfy((error: Error) => !error.message.includes('s3cr3t'));
    }
  });

  it('"sslmode=require" against a server without TLS → one line naming sslmode in DATABASE_URL and the fix', async () => {
    const server = await fakeServer({ code: '28000', message: 'not reached' });
    const database = await openDatabase({ url: server.url('?sslmode=no-verify') });
    try {
      await expect(runMigrations(database, {})).rejects.toMatchObject({
        code: 'PANEL_ERR_CONFIG',
        message: 'The PostgreSQL server DATABASE_URL names does not accept TLS connections, and DATABASE_URL asks for TLS (sslmode). Fix: remove sslmode from DATABASE_URL (or set sslmode=disable) for a server without TLS, or turn TLS on in the server (ssl = on in postgresql.conf).',
      });
    } finally {
      await database.close();
      await server.close();
    }
  });

  it('no connection slot left (53300) → one line naming max_connections, maxConnections and the fix', async () => {
    const server = await fakeServer({ code: '53300', message: 'sorry, too many clients already' });
    const database = await openDatabase({ url: server.url() });
    try {
      await expect(runMigrations(database, {})).rejects.toMatchObject({
        code: 'PANEL_ERR_CONFIG',
        message: "The PostgreSQL server DATABASE_URL names has no connection left (sorry, too many clients already). Fix: raise the server's max_connections, or lower openDatabase's maxConnections (10 by default) times the number of processes, or put a pooler such as PgBouncer in front of the server.",
      });
    } finally {
      await database.close();
      await server.close();
    }
  });

  it('a server that does not answer within connectionTimeoutMillis → one line naming the bound and the fix', async () => {
    const server = await fakeServer('silent');
    const database = await openDatabase({ url: server.url(), connectionTimeoutMillis: 300 });
    try {
      await expect(runMigrations(database, {})).rejects.toMatchObject({
        code: 'PANEL_ERR_CONFIG',
        message: "PostgreSQL did not answer within openDatabase's connectionTimeoutMillis (5000 by default): the server DATABASE_URL names is frozen, or a firewall drops the traffic. Fix: check that the server runs and is reachable from here (the host and port in DATABASE_URL), or raise connectionTimeoutMillis for a slow network.",
      });
    } finally {
      await database.close();
      await server.close();
    }
  });
});

describe('databaseSetupProblem, for the driver errors a test server cannot produce (trust authentication, every migration run)', () => {
  it('"wrong password" (28P01) names the user and the URL to correct', () => {
    const error = Object.assign(new Error('password authentication failed for user "shop"'), { code: '28P01' });
    expect(databaseSetupProblem(error)).toBe(
      'PostgreSQL refused the login of user "shop" (password authentication failed for user "shop"). Fix: correct the user and password in DATABASE_URL (postgres://user:password@host:5432/database), or create the role: createuser --pwprompt shop.',
    );
  });

  it('"missing migration" (42P01) names the table and says to run the migrations', { timeout: 120_000 }, async () => {
    const database = await openDatabase();
    try {
      const error = await database.db.selectFrom('books').selectAll().execute().catch((thrown: unknown) => thrown);
      expect(databaseSetupProblem(error)).toBe(
        "The table books does not exist: its migration has not run on this database. Fix: run the app's migrations first (await runMigrations(database, migrations) at boot, before createPanel).",
      );
    } finally {
      await database.close();
    }
  });

  it('is undefined for an error that is not a setup mistake', () => {
    expect(databaseSetupProblem(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    expect(databaseSetupProblem(new Error('boom'))).toBeUndefined();
  });
});
