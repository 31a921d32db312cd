import type { FastifyInstance } from 'fastify';
import { attachmentsPath } from '@panel/core';
import { PANEL_SECURITY_HEADERS } from './security-headers.js';

/** Options of `securePanelPages`. */
export interface SecurePanelPagesOptions {
  /** The panel's root path (`panel.config.rootPath`): every answer under it gets the headers. */
  readonly rootPath: string;
}

/**
 * Gives every answer under the panel's root path the screens' security headers
 * (`PANEL_SECURITY_HEADERS`: CSP with `frame-ancestors 'none'`, `X-Frame-Options: DENY`, COOP,
 * CORP, …): the app's own pages (sign-in, confirmation, security) cannot be framed, and a URL
 * the app does not have answers with the same headers as a screen the gate refused, so the 404
 * does not tell them apart. A header a route set itself is kept; file URLs
 * (`<rootPath>/attachments/…`) keep their own. Call it on the root Fastify instance (not inside
 * a plugin), before `listen`, so the not-found handler's answers are covered too.
 *
 * @example
 * const app = Fastify();
 * securePanelPages(app, { rootPath: panel.config.rootPath });
 */
export function securePanelPages(app: FastifyInstance, options: SecurePanelPagesOptions): void {
  const root = options.rootPath === '/' ? '' : options.rootPath.replace(/\/$/, '');
  const files = `${attachmentsPath(options.rootPath)}/`;
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0]!;
    const underRoot = root === '' || path === root || path.startsWith(`${root}/`);
    if (underRoot && !path.startsWith(files)) {
      for (const [name, value] of Object.entries(PANEL_SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
}
