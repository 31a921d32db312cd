import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatWalPosition, parseWalPosition, runWithReadConsistency, type PanelDatabase, type ReadConsistency, type WalPosition } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';
import { errorReply, sendErrorReply } from '../errors/error-reply.js';

/** The header a write's answer carries, and a later request sends back: the WAL position its reads must see. */
export const READ_AFTER_HEADER = 'Panel-Read-After';

/** The cookie that carries the same position for browsers (panel sessions), so they need do nothing. */
export const READ_AFTER_COOKIE = 'panel_read_after';

const consistencyOf = new WeakMap<FastifyRequest, ReadConsistency>();

/** The value of one cookie in a `Cookie` header (no cookie plugin needed). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** What `readYourWrites` is told. */
export interface ReadYourWritesOptions {
  /** Set the cookie on every write's answer (`'always'`, the panel screens) or only to clients that send cookies (`'cookie-clients'`, the API). */
  readonly cookie: 'always' | 'cookie-clients';
}

/**
 * Read-your-writes over read replicas, for the routes of the scope it is added to (only when
 * the database has replicas). Each request runs in its own read-consistency record:
 *
 * - a request carrying `Panel-Read-After: <lsn>` (or the `panel_read_after` cookie) has its
 *   reads answered by a replica only once that replica has replayed `<lsn>`, else by the
 *   primary. A malformed header is a 400; a malformed cookie is ignored.
 * - a request that wrote answers `Panel-Read-After: <lsn>` (the primary's WAL position after
 *   its commit) and, for browsers, the cookie, which lives as long as the replicas' lag bound:
 *   after that, every replica in use has replayed the write anyway.
 *
 * A client that sends neither reads from a replica at most `replicaMaxLagMillis` behind.
 */
export function readYourWrites(app: FastifyInstance, database: PanelDatabase, options: ReadYourWritesOptions): void {
  const replicas = database.replicas;
  if (!replicas) return;
  const maxAge = Math.ceil(replicas.maxLagMillis / 1000);
  // preValidation: after the body is read, so the handler and its hooks run inside the record.
  app.addHook('preValidation', (request, reply, done) => {
    const header = request.headers['panel-read-after'];
    let readAfter: WalPosition | undefined;
    if (header !== undefined) {
      readAfter = typeof header === 'string' ? parseWalPosition(header) : undefined;
      if (readAfter === undefined) {
        // The error table's 400, sent here: the hook also runs in scopes whose error handler is the app's own.
        sendErrorReply(reply, errorReply(new BadRequestError(`${READ_AFTER_HEADER} must be the WAL position a write's answer gave (such as 0/16B3748), sent back unchanged`)));
        return;
      }
    } else {
      readAfter = parseWalPosition(cookieValue(request.headers.cookie, READ_AFTER_COOKIE));
    }
    runWithReadConsistency(readAfter, (consistency) => {
      consistencyOf.set(request, consistency);
      done();
    });
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const wrote = consistencyOf.get(request)?.wrote;
    if (wrote === undefined) return payload;
    const position = formatWalPosition(wrote);
    reply.header(READ_AFTER_HEADER, position);
    if (options.cookie === 'always' || request.headers.cookie !== undefined) {
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', [...[reply.getHeader('set-cookie') ?? []].flat().map(String), `${READ_AFTER_COOKIE}=${position}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`]);
    }
    return payload;
  });
}
