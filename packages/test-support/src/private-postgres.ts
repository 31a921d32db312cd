import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** A PostgreSQL cluster of the test's own, on a free port under a temporary folder, that it may stop and start. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  readonly url: string;
  readonly port: number;
  /** The temporary folder of its data, socket and `server.log`. */
  readonly folder: string;
  /** `pg_ctl stop -m fast`: every backend is told to end (57P01) and new connections are refused. */
  stop(): Promise<void>;
  /** `pg_ctl start`, waiting until the server accepts connections. */
  start(): Promise<void>;
  /** Stops the server if it runs and removes its folder. */
  close(): Promise<void>;
}

/** The folder with `initdb` and `pg_ctl`: `PANEL_PG_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PANEL_PG_BIN) return env.PANEL_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) {
    throw new Error(
      'The outage test needs a PostgreSQL cluster of its own, and no initdb was found under /usr/lib/postgresql/<version>/bin. ' +
        'Fix: install the server (apt-get install -y postgresql), or set PANEL_PG_BIN to the folder holding initdb and pg_ctl.',
    );
  }
  return join(root, versions[0]!, 'bin');
}

/** How a private cluster is made: a new primary (the default), or a streaming replica of one. */
export interface PrivatePostgresOptions {
  /** Make a streaming replica of this cluster (`pg_basebackup -R`, hot standby) instead of a new primary. */
  readonly replicaOf?: PrivatePostgres;
  /** The replica's `recovery_min_apply_delay`, in milliseconds (it replays each commit this late). Default 0. */
  readonly applyDelayMillis?: number;
}

/**
 * Creates and starts a private PostgreSQL cluster (initdb, pg_ctl) on a free port, its data,
 * socket and log in a temporary folder. PostgreSQL refuses to run as root, so as root the
 * commands run as the `postgres` user (`runuser`) and the folder is given to it. Never touches
 * any other server. With `replicaOf`, the cluster is a streaming replica of that one, copied
 * with `pg_basebackup -R` (initdb's trust rules let it connect for replication).
 */
export async function startPrivatePostgres(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const folder = await mkdtemp(join(tmpdir(), 'panel-private-pg-'));
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(folder, uid, gid);
  }
  const pgCommand = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  const data = join(folder, 'data');
  const port = await freePort();
  const replicaOf = options.replicaOf;
  try {
    if (replicaOf) {
      await pgCommand('pg_basebackup', ['-h', '127.0.0.1', '-p', String(replicaOf.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--no-sync']);
    } else {
      await pgCommand('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--no-instructions']);
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw new Error(`${replicaOf ? 'pg_basebackup' : 'initdb'} failed for the private PostgreSQL cluster (${(error as Error).message.trim()}). Fix: run the suite as root or as a user that may run PostgreSQL, or set PANEL_PG_BIN.`);
  }
  const delay = replicaOf && options.applyDelayMillis ? ` -c recovery_min_apply_delay=${options.applyDelayMillis}ms` : '';
  let running = false;
  const start = async () => {
    await pgCommand('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-w', '-t', '30', '-o', `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c wal_sender_timeout=5s${delay}`, 'start']);
    running = true;
  };
  const stop = async () => {
    await pgCommand('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    folder,
    start,
    stop,
    close: async () => {
      if (running) await stop().catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
