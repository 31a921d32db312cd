// PGlite is one process, so a second process (the token CLI beside a running app) reaches the
// app's database through the app: this Unix socket speaks PostgreSQL's wire protocol, each
// message run by PGlite itself. One client session holds the app's one connection (the
// dialect's) from its first message to its end, so its transaction never interleaves with a
// request's; an idle client is cut after `idleMillis`.
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';

/** The socket's file name, as `pg` derives it from `host=<folder>` and the default port. */
export const PGLITE_SOCKET_FILE = '.s.PGSQL.5432';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** A served PGlite: `folder` is what a client gives `pg` as its host; `close()` ends the sessions and removes the folder. */
export interface PgliteSocketServer {
  readonly folder: string;
  close(): Promise<void>;
}

/** The length of the first whole message in `buffer` (a start-up message has no type byte), or 0 when it is not all there. */
function firstMessageLength(buffer: Buffer, started: boolean): number {
  if (!started) {
    if (buffer.length < 4) return 0;
    const length = buffer.readInt32BE(0);
    return buffer.length >= length ? length : 0;
  }
  if (buffer.length < 5) return 0;
  const length = 1 + buffer.readInt32BE(1);
  return buffer.length >= length ? length : 0;
}

/**
 * Serves `pglite` on a Unix socket in a new folder under the system's temporary folder, made
 * by `mkdtemp` (mode 0700) with the socket at mode 0600: only this OS user reaches it. Each
 * client session runs inside `db.connection()`, the app's one PGlite connection, and a
 * transaction it leaves open is rolled back when it ends.
 *
 * @example
 * const served = await servePgliteSocket({ pglite, db });
 * // another process: new pg.Client({ host: served.folder, user: 'postgres', database: 'postgres' })
 */
export async function servePgliteSocket(options: { readonly pglite: PGlite; readonly db: Kysely<any>; readonly idleMillis?: number }): Promise<PgliteSocketServer> {
  const { pglite, db } = options;
  const idleMillis = options.idleMillis ?? 5_000;
  const folder = await mkdtemp(join(tmpdir(), 'panel-pglite-'));
  const sessions = new Set<Socket>();

  const serve = (socket: Socket) =>
    db.connection().execute(async () => {
      let buffer = Buffer.alloc(0);
      let started = false;
      let pending = Promise.resolve();
      socket.setTimeout(idleMillis, () => socket.destroy());
      const run = async () => {
        for (;;) {
          if (!started && buffer.length >= 8 && buffer.readInt32BE(0) === 8 && buffer.readInt32BE(4) === SSL_REQUEST) {
            buffer = buffer.subarray(8);
            socket.write('N');
            continue;
          }
          if (!started && buffer.length >= 16 && buffer.readInt32BE(0) === 16 && buffer.readInt32BE(4) === CANCEL_REQUEST) {
            buffer = buffer.subarray(16);
            continue;
          }
          const length = firstMessageLength(buffer, started);
          if (length === 0) return;
          const message = new Uint8Array(buffer.subarray(0, length));
          if (!started && buffer.readInt32BE(4) === PROTOCOL_3) started = true;
          buffer = buffer.subarray(length);
          const reply = await pglite.runExclusive(() => pglite.execProtocolRaw(message));
          if (reply.length > 0 && socket.writable) socket.write(reply);
        }
      };
      await new Promise<void>((resolve) => {
        socket.on('data', (chunk) => {
          buffer = Buffer.concat([buffer, chunk]);
          pending = pending.then(run).catch(() => void socket.destroy());
        });
        socket.on('error', () => socket.destroy());
        socket.on('close', () => void pending.then(resolve, resolve));
      });
      if (pglite.isInTransaction()) await pglite.exec('rollback');
    });

  const server: Server = createServer((socket) => {
    sessions.add(socket);
    void serve(socket)
      .catch(() => socket.destroy())
      .finally(() => sessions.delete(socket));
  });
  const path = join(folder, PGLITE_SOCKET_FILE);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  server.unref();
  // A process that exits without closing the database leaves no socket folder behind (a kill does: its pid, dead, makes the record stale).
  const removeOnExit = () => rmSync(folder, { recursive: true, force: true });
  process.once('exit', removeOnExit);
  return {
    folder,
    close: async () => {
      process.off('exit', removeOnExit);
      for (const socket of sessions) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}
