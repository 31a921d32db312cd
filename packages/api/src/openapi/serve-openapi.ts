import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OpenApiObject, OpenApiOptions } from './openapi-options.js';

/** How the document routes of a mount are drawn. */
export interface ServeOpenApiInput {
  readonly mountPath: string;
  readonly versions: readonly string[];
  /** Builds one version's document; asked once, at the first request (every route is drawn by then). */
  readonly build: (version: string) => OpenApiObject;
  readonly options: OpenApiOptions;
}

/** The document as served: its bytes and their ETag, made once. */
function cached(build: () => OpenApiObject): () => { body: string; etag: string } {
  let served: { body: string; etag: string } | undefined;
  return () => {
    served ??= (() => {
      const body = JSON.stringify(build(), null, 2);
      return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    })();
    return served;
  };
}

/** Whether `If-None-Match` names the ETag (a list, or `*`; a weak validator matches too). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Draws `GET <mount>/resources/<version>/openapi.json` for each version (with an ETag, 304 on
 * `If-None-Match`), and with `docs: true` the interactive reference at `…/<version>/docs`.
 * With `public: false` nothing is drawn; with a function, a request it refuses is a 404.
 */
export async function serveOpenApi(api: FastifyInstance, input: ServeOpenApiInput): Promise<void> {
  const { options, mountPath } = input;
  if (options.public === false) return;
  const gate = typeof options.public === 'function' ? options.public : undefined;
  const allowed = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (!gate || (await gate(request))) return true;
    await reply.code(404).send({ error: 'Not Found' });
    return false;
  };
  for (const version of input.versions) {
    const document = cached(() => input.build(version));
    api.get(`/resources/${version}/openapi.json`, async (request, reply) => {
      if (!(await allowed(request, reply))) return reply;
      const { body, etag } = document();
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });
    if (options.docs === true) {
      // Loaded only when asked for: an app without the reference page never imports it.
      const { default: scalarReference } = await import('@scalar/fastify-api-reference');
      await api.register(scalarReference, {
        routePrefix: `/resources/${version}/docs`,
        configuration: { url: `${mountPath}/resources/${version}/openapi.json`, title: `Panel API ${version}` },
        logLevel: 'warn',
        ...(gate ? { hooks: { onRequest: async (request: FastifyRequest, reply: FastifyReply) => void (await allowed(request, reply)) } } : {}),
      });
    }
  }
}
