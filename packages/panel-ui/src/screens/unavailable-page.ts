import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorHandler, errorReply } from '@panel/api';
import { applySecurityHeaders } from '../security/security-headers.js';

/** A browser's page request (`Accept: text/html`), as opposed to a script that asks for JSON. */
const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(String(request.headers.accept ?? ''));

/**
 * The page a browser gets when the panel cannot answer now (the database or the storage is
 * unavailable): a page of its own, not the shell, since the shell needs the database to know
 * who is signed in. No script, no style, nothing of the cause.
 */
export const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Service unavailable · Panel</title>
</head>
<body>
<main id="main">
  <h1>Service unavailable</h1>
  <p role="alert">The panel cannot reach what it needs right now. Try again in a few seconds.</p>
</main>
</body>
</html>
`;

/**
 * The error handler of the panel's pages: `apiErrorHandler`'s answers (no internal code or
 * message in any), except that a browser's page that meets an outage (503) gets
 * `UNAVAILABLE_PAGE` with `Retry-After` and the screens' security headers instead of the API's
 * JSON; a client that asks for JSON keeps the JSON. The outage is logged as the API logs it.
 *
 * @example
 * app.setErrorHandler(screensErrorHandler(panel.config.rootPath));
 */
export function screensErrorHandler(rootPath: string) {
  const api = apiErrorHandler({ rootPath });
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const answer = errorReply(error, { rootPath });
    if (answer.status !== 503 || !wantsHtml(request)) return api(error, request, reply);
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    request.log.warn({ code: (error as { code?: unknown }).code, reason: (error as { reason?: unknown }).reason, cause: cause?.code, detail: cause?.message }, 'Panel page refused: a service it needs is unavailable');
    applySecurityHeaders(reply);
    return reply.code(503).headers(answer.headers ?? {}).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(UNAVAILABLE_PAGE);
  };
}
