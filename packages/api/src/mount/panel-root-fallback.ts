import type { FastifyInstance } from 'fastify';
import { errorReply, FLASH_COOKIE, sendErrorReply } from '../errors/error-reply.js';
import { NotFoundError } from '../errors/api-errors.js';

/** What the panel's root path answers when nothing else serves it. */
export interface PanelRootFallbackBody {
  readonly error: 'Not Found';
  readonly message: string;
  /** The flash a refused policy check left (Edition A's 302 sets it), when the client sent it back. */
  readonly flash?: string;
}

const FLASH = new RegExp(`(?:^|;\\s*)${FLASH_COOKIE}=([^;]*)`);

/** The flash cookie's text, when the request carries one (the hook may run before any cookie parser). */
function flashOf(cookie: string | undefined): string | undefined {
  const raw = FLASH.exec(cookie ?? '')?.[1];
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The fallback's body for an app whose API is mounted at `mountPath` and whose panel root is `rootPath`. */
export function panelRootFallbackBody(rootPath: string, mountPath: string, flash?: string): PanelRootFallbackBody {
  return {
    error: 'Not Found',
    message:
      `No panel pages are mounted at ${rootPath}; the API is at ${mountPath}/resources/<version>/. ` +
      `A refused policy check redirects here (302, as the specification says). An API client that wants a 403 instead: ` +
      'add rescueFrom(NotAuthorizedError) to the BaseResourcesController (docs/authorization.md).',
    ...(flash ? { flash } : {}),
  };
}

/**
 * Makes the panel's root path (`/panel`) answer a JSON 404 that explains itself when the app has
 * no panel pages there: an API-only app's client that follows the policy-denial redirect gets
 * the reason and the fix instead of a bare "Route GET:/panel not found". It is an `onRequest`
 * hook that acts only on requests no route matched, so an app that mounts its panel pages (before
 * or after the API) keeps its own page, and its own 404 handler answers every other path.
 */
export function addPanelRootFallback(app: FastifyInstance, rootPath: string, mountPath: string): void {
  // A callback hook, not an async one: every request of the app runs it, and a promise per request is work for nothing.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD')) return done();
    const path = request.url.split('?')[0]!;
    if (path !== rootPath && path !== `${rootPath}/`) return done();
    const flash = flashOf(request.headers.cookie);
    if (flash !== undefined) void reply.header('set-cookie', `${FLASH_COOKIE}=; Path=${rootPath}; Max-Age=0; HttpOnly; SameSite=Lax`);
    const { error: _notFound, ...details } = panelRootFallbackBody(rootPath, mountPath, flash);
    // The error table's 404, with the explanation after its `error` (answered here: `done` is not called).
    sendErrorReply(reply, errorReply(new NotFoundError(details), { rootPath }), { rootPath });
  });
}
