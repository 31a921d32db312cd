import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Panel } from '@panel/core';
import { loadPanelSession } from './session-cookie.js';
import { AuthenticationError, ConfirmationRequiredError } from '../errors/api-errors.js';
import { errorReply, sendErrorReply, type ErrorReplyContext } from '../errors/error-reply.js';

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(String(request.headers.accept ?? ''));

/**
 * The guard of sensitive panel routes (GitHub's sudo mode): passes when the session's user
 * typed their password within `session.confirmWindow` seconds (sign-in counts). Otherwise it
 * answers and returns false: a browser (`Accept: text/html`) is sent (303) to the confirm page,
 * or to the sign-in page when there is no session, with `return_to` set to this page for a
 * GET; any other client gets 403 `{ "error": "Password confirmation required", "confirm_path" }`,
 * or 401 `{ "error": "Unauthorized" }` without a session.
 *
 * @example
 * app.get('/panel/api_tokens/new', async (request, reply) => {
 *   if (!(await requireRecentConfirmation(panel, request, reply))) return reply;
 *   return reply.type('text/html').send(newTokenForm());
 * });
 */
export async function requireRecentConfirmation(panel: Panel, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const session = await loadPanelSession(panel, request, reply);
  const signedIn = session !== null && session.data.userId !== undefined;
  if (signedIn && panel.sessions!.isRecentlyConfirmed(session)) return true;
  // The error table answers: a browser page is sent to the page that resolves it (303), any other client gets its JSON.
  const context: ErrorReplyContext = {
    rootPath: panel.config.rootPath,
    ...(wantsHtml(request) ? { browser: { returnTo: request.method === 'GET' ? request.url : undefined } } : {}),
  };
  await sendErrorReply(reply, errorReply(signedIn ? new ConfirmationRequiredError() : new AuthenticationError(), context), context);
  return false;
}
