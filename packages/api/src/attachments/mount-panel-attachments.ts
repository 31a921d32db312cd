import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ApiExtension } from '../extensions/api-extension.js';
import { attachmentsPath, FileNotFoundError, isPanelError, PanelConfigError, type Panel } from '@panel/core';
import { apiErrorHandler } from '../errors/error-reply.js';
import { contentDisposition, dispositionFor } from './content-disposition.js';

/** Options of `mountPanelAttachments`. */
export interface MountPanelAttachmentsOptions {
  /** The panel whose attachments are served, under its `rootPath`. */
  panel: Panel;
  /**
   * The API's extensions, whose file routes are served too. Edition B's (`configurePanelApi()`)
   * serves the signed URLs given to token actors, at
   * `<rootPath>/attachments/signed/<sealed key>/<filename>?expires=…&signature=…` with
   * `Cache-Control: private, no-store`; an expired or tampered one is 403 `{ "error": "Forbidden" }`.
   */
  extensions?: readonly ApiExtension[];
  /** The earlier spelling of `extensions: [tokens]` (Edition B's `configurePanelApi()` result). */
  tokens?: ApiExtension;
}

/** A year: the bytes under a key never change (replacing a file makes a new blob with a new key). */
export const ATTACHMENT_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * A signed URL's answer: never stored by a shared cache nor kept by the browser, so nothing
 * serves the file once the signature has expired.
 */
export const SIGNED_ATTACHMENT_CACHE_CONTROL = 'private, no-store';

/**
 * Serves the standard attachment URL, `GET <rootPath>/attachments/<key>/<filename>` (and
 * `HEAD`), as a Fastify plugin. The answer streams the bytes from the panel's storage service
 * with the blob's `Content-Type` and `Content-Length`, a `Content-Disposition` (inline for
 * images, attachment otherwise, the name in RFC 5987 form), a year-long immutable
 * `Cache-Control` and the checksum as `ETag`. An unknown key, or a filename other than the
 * blob's, is 404 `{ "error": "Not Found" }`.
 *
 * The URLs are public, as the spec's Edition A wants them (neither signed nor expiring): the
 * random key is their secret. Mount the plugin outside any session-authentication scope.
 *
 * @example
 * await app.register(mountPanelAttachments, { panel });
 */
const mountPanelAttachmentsPlugin: FastifyPluginAsync<MountPanelAttachmentsOptions> = async (app, options) => {
  const panel = options?.panel;
  if (!panel || typeof panel.attachments?.blob !== 'function') {
    throw new PanelConfigError('mountPanelAttachments: the panel option is required. Fix: app.register(mountPanelAttachments, { panel }).');
  }
  // The API's one mapping: a missing file is 404 { "error": "Not Found" }, a database outage the same 503 with Retry-After, anything else a JSON error.
  app.setErrorHandler(apiErrorHandler({ rootPath: panel.config.rootPath }));
  // The cache header is set with the others, before any byte goes out: a header set after `send` is lost.
  const serve = async (key: string, filename: string, cacheControl: string, request: FastifyRequest, reply: FastifyReply) => {
      const blob = await panel.attachments.blob(key);
      if (!blob || blob.filename !== filename) throw new FileNotFoundError(key);
      const etag = `"${blob.checksum}"`;
      reply.headers({ 'cache-control': cacheControl, etag });
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.code(304).send();
      reply.headers({
        'content-type': blob.content_type,
        'content-disposition': contentDisposition(dispositionFor(blob.content_type), blob.filename),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      if (request.method === 'HEAD') return reply.header('content-length', blob.byte_size).send();
      let body: Awaited<ReturnType<typeof panel.attachments.storage.download>>;
      try {
        body = await panel.attachments.storage.download(blob.key);
      } catch (error) {
        // A 404 must not be cached as the immutable bytes would be.
        if (isPanelError(error, 'PANEL_ERR_FILE_NOT_FOUND')) reply.removeHeader('cache-control').removeHeader('etag');
        throw error;
      }
      return reply.header('content-length', blob.byte_size).send(body);
  };
  app.route<{ Params: { key: string; filename: string } }>({
    method: ['GET', 'HEAD'],
    url: `${attachmentsPath(panel.config.rootPath)}/:key/:filename`,
    handler: (request, reply) => serve(request.params.key, request.params.filename, ATTACHMENT_CACHE_CONTROL, request, reply),
  });
  const extensions = [...(options.extensions ?? []), ...(options.tokens ? [options.tokens] : [])];
  for (const extension of extensions) await extension.attachments?.({ app, panel, serve });
};

// Encapsulated (its error handler stays its own); a Fastify other than 5 fails at register.
fastifyPlugin(mountPanelAttachmentsPlugin, { fastify: '5.x', name: 'panel-attachments', encapsulate: true });

/**
 * The standard attachment URL as a Fastify plugin; see `mountPanelAttachmentsPlugin`.
 *
 * @example
 * await app.register(mountPanelAttachments, { panel });
 */
export const mountPanelAttachments = mountPanelAttachmentsPlugin;
