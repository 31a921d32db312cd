import type { FastifyInstance } from 'fastify';
import { attachmentsPath } from '@panel/core';
import { ForbiddenError, ResourcesController, SIGNED_ATTACHMENT_CACHE_CONTROL, type AttachmentsHost, type ExtensionHost, type MountedExtension } from '@panel/api';
import type { PanelApiTokensConfig } from '../config/panel-api-tokens-config.js';
import { resolveTokenPepper } from '../pepper/token-pepper.js';
import { openBlobKey } from '../signed-urls/sealed-blob-key.js';
import { checkFileSignature, signingKey } from '../signed-urls/signed-file-url.js';
import { createEditionB } from './edition-b.js';
import { tokenGate } from './token-gate.js';
import { withCatchAllControllers } from './catch-all-controllers.js';
import { warnAboutEmptyDefaultPermissions, warnAboutMissingDigestIndex } from './boot-warnings.js';
import { PANEL_API_TOKEN_SCHEME, SIGNED_SEGMENT } from './edition-b-names.js';

/**
 * Whether requests without a token can reach this controller: its `setupAuthentication` is not
 * the closed default (which refuses every request), so the default permissions list decides.
 */
function opensCodeHookPath(controller: typeof ResourcesController): boolean {
  return controller.prototype.setupAuthentication !== ResourcesController.prototype.setupAuthentication;
}

/**
 * Edition B in one mount: the token service (decorated on the app as `panelApiTokens`), the
 * token gate, a catch-all controller for every resource without a generated one, the
 * traversals, the `panelApiToken` Bearer scheme, and each token's own rate limit.
 */
export async function mountEditionB(config: PanelApiTokensConfig, { app, panel, licensed, controllersDir }: ExtensionHost): Promise<MountedExtension> {
  const edition = createEditionB(panel, config, (message) => app.log.error(message));
  if (!app.hasDecorator('panelApiTokens')) (app as FastifyInstance).decorate('panelApiTokens', edition.tokens);
  if (licensed) await warnAboutMissingDigestIndex(app, () => edition.tokens.hasDigestIndex());
  return {
    gate: tokenGate(panel, edition),
    // Every resource is served; a discovered override controller wins over the catch-all.
    controllers: async (discovered) => {
      const served = await withCatchAllControllers(panel, discovered, controllersDir);
      // The default permissions list governs only requests a controller's own setupAuthentication lets in.
      if (served.some(({ controller }) => opensCodeHookPath(controller))) await warnAboutEmptyDefaultPermissions(app, () => edition.tokens.defaultPermissions());
      return served;
    },
    traversals: true,
    securitySchemes: { [PANEL_API_TOKEN_SCHEME]: { type: 'http', scheme: 'bearer', description: 'A Panel API token: `Authorization: Bearer <token>` (Edition B).' } },
    credentialLimit: (id) => edition.tokenRateLimit(id),
  };
}

/**
 * The signed file URLs given to token actors, served at
 * `<rootPath>/attachments/signed/<sealed key>/<filename>?expires=…&signature=…` with
 * `Cache-Control: private, no-store` (no cache keeps what expires); an expired or tampered one
 * is 403 `{ "error": "Forbidden" }`.
 */
export async function serveSignedFiles(config: PanelApiTokensConfig, { app, panel, serve }: AttachmentsHost): Promise<void> {
  // A wildcard, not `:key`: a sealed key is longer than Fastify's default limit on one path parameter.
  app.route<{ Params: { '*': string }; Querystring: Record<string, unknown> }>({
    method: ['GET', 'HEAD'],
    url: `${attachmentsPath(panel.config.rootPath)}/${SIGNED_SEGMENT}/*`,
    handler: async (request, reply) => {
      const rest = request.params['*'];
      const slash = rest.indexOf('/');
      const key = signingKey(resolveTokenPepper(config.pepper));
      const blobKey = slash > 0 ? openBlobKey(key, rest.slice(0, slash)) : undefined;
      const filename = rest.slice(slash + 1);
      if (blobKey === undefined || checkFileSignature(key, blobKey, filename, request.query.expires, request.query.signature, new Date()) !== 'valid') throw new ForbiddenError();
      return serve(blobKey, filename, SIGNED_ATTACHMENT_CACHE_CONTROL, request, reply);
    },
  });
}
