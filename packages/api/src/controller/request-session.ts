import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpenedSession, Panel, SessionData } from '@panel/core';
import { loadPanelSession, writePanelSession } from '../session/session-cookie.js';
import { verifyAuthenticity } from './csrf-protection.js';

/**
 * The panel session of one request as a controller sees it: the cookie as loaded before the
 * callbacks (checked for expiry, rotation and revocation), and the session the actions read,
 * which is empty when there is none, when sessions are off, when the cookie expired, went idle
 * or was revoked, or when an unsafe request came without a valid CSRF token (the null session).
 */
export class RequestSession {
  /** The session cookie as loaded, or null. */
  #opened: OpenedSession | null;
  #data: SessionData | null | undefined;

  constructor(opened: OpenedSession | null = null) {
    this.#opened = opened;
  }

  /** Loads the request's session cookie (once per request); undefined, nothing to wait for, when the panel has sessions off. */
  load(panel: Panel, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    if (!panel.sessions) return undefined;
    return loadPanelSession(panel, request, reply).then((opened) => {
      this.#opened = opened;
    });
  }

  /** The same loaded cookie for another controller of the request (a traversal's target), which checks CSRF by its own strategy. */
  share(): RequestSession {
    return new RequestSession(this.#opened);
  }

  /** The session the actions read (see the class). */
  get data(): SessionData {
    if (this.#data === undefined) this.#data = this.#opened?.data ?? null;
    return this.#data ?? {};
  }

  /** Applies the CSRF strategy of the controller class `cls`: the request keeps its session, or gets the null session, or (`exception`) is refused. */
  verifyAuthenticity(cls: object, request: FastifyRequest): void {
    const session = this.#opened?.data ?? null;
    this.#data = verifyAuthenticity(cls, request, session) ? session : null;
  }

  /**
   * After this request changed the password of `userId` (every session of theirs ended): when
   * this session is theirs, it is sealed again under their new generation, so it alone holds.
   */
  keepAfterPasswordChange(panel: Panel, request: FastifyRequest, reply: FastifyReply, userId: number, generation: number): void {
    const opened = this.#opened;
    if (!panel.sessions || !opened || this.data.userId !== userId || reply.sent) return;
    writePanelSession(panel, request, reply, panel.sessions.renew(opened, generation));
  }

  /** Whether the session's user typed their password within `session.confirmWindow` seconds (false without a session, or with the null session). */
  isRecentlyConfirmed(panel: Panel): boolean {
    const sessions = panel.sessions;
    return sessions !== null && this.data.userId !== undefined && sessions.isRecentlyConfirmed(this.#opened);
  }
}
