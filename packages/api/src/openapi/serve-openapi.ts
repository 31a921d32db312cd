import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { OpenApiObject, OpenApiOptions } from './openapi-options.js';
import { NotFoundError } from '../errors/api-errors.js';
import type { DocumentActor } from './document-actor.js';

/** How the document routes of a mount are drawn. */
export interface ServeOpenApiInput {
  readonly mountPath: string;
  readonly versions: readonly string[];
  /** Builds one version's document, for every actor (asked once, at the first request: every route is drawn by then) or for one. */
  readonly build: (version: string, actor?: DocumentActor) => OpenApiObject;
  /** The actor a request's credentials prove on one version's routes (see `documentActor`); a refused credential throws the API's 401. */
  readonly actorOf: (version: string, request: FastifyRequest, reply: FastifyReply) => Promise<DocumentActor>;
  /** Whether the request carries a credential (a header or cookie a security scheme names, the panel session): then its document is its actor's. */
  readonly carriesCredentials: (request: FastifyRequest) => boolean;
  readonly options: OpenApiOptions;
}

/** A document as served: its bytes and their ETag. */
interface Served {
  readonly body: string;
  readonly etag: string;
}

function served(document: OpenApiObject): Served {
  const body = JSON.stringify(document, null, 2);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** How many actors' documents a version keeps (the least recently served go first). */
const KEPT_ACTOR_DOCUMENTS = 64;

/**
 * The documents of actors, kept by their signature (`DocumentActor.signature`): building one
 * takes tens of milliseconds, asking the routes a few; every actor with the same routes and
 * fields shares one, and a changed grant changes the signature.
 */
function actorDocuments(build: (actor: DocumentActor) => OpenApiObject): (actor: DocumentActor) => Served {
  const kept = new Map<string, Served>();
  return (actor) => {
    let made = kept.get(actor.signature);
    if (made) kept.delete(actor.signature);
    else made = served(build(actor));
    kept.set(actor.signature, made);
    if (kept.size > KEPT_ACTOR_DOCUMENTS) kept.delete(kept.keys().next().value!);
    return made;
  };
}

/** The document every actor reads, made once. */
function cached(build: () => OpenApiObject): () => Served {
  let made: Served | undefined;
  return () => {
    made ??= served(build());
    return made;
  };
}

/** What a document depends on besides its URL: the credential of the request. */
const CREDENTIAL_HEADERS = 'Authorization, Cookie';

/** Whether `If-None-Match` names the ETag (a list, or `*`; a weak validator matches too). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The paths the reference serves under its prefix that the mount forwards: the page (a redirect
 * to the trailing slash, then the HTML) and its script (`@scalar/fastify-api-reference`'s
 * `js/scalar.js`; the docs test loads the script the page names, so a rename is caught).
 */
const REFERENCE_PATHS = ['', '/', '/js/scalar.js'];

/** The Host the reference's inner server is asked with (it builds its redirect from the path alone). */
const REFERENCE_HOST = 'localhost';

/** Headers of the reference's own answer that the outer reply sets for itself. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'date', 'keep-alive']);

/**
 * The interactive reference (Scalar), made at its first request: a Fastify instance of its own
 * serving the reference's pages under `routePrefix`, which the mount's routes forward to. Its
 * package (some 17 MB of memory and a fraction of a second to import) is loaded only then, so
 * that an app's start and memory do not pay for a page a developer opens now and then.
 */
function lazyReference(routePrefix: string, configuration: { url: string; title: string }): () => Promise<FastifyInstance> {
  let made: Promise<FastifyInstance> | undefined;
  return () =>
    (made ??= (async () => {
      const { default: scalarReference } = await import('@scalar/fastify-api-reference');
      const reference = Fastify({ logger: false });
      await reference.register(scalarReference, { routePrefix: routePrefix as `/${string}`, configuration, logLevel: 'warn' });
      await reference.ready();
      return reference;
    })());
}

/**
 * Draws `GET <mount>/resources/<version>/openapi.json` for each version (with an ETag, 304 on
 * `If-None-Match`), and with `docs: true` the interactive reference at `…/<version>/docs`.
 * An anonymous request reads the document every actor reads; a request with a credential
 * reads it as that credential's actor may use the API (its routes, fields and parameters),
 * `Cache-Control: private`, and a credential the API refuses answers the API's 401.
 * With `public: false` nothing is drawn; with a function, a request it refuses is a 404.
 */
export async function serveOpenApi(api: FastifyInstance, input: ServeOpenApiInput): Promise<void> {
  const { options, mountPath } = input;
  if (options.public === false) return;
  const gate = typeof options.public === 'function' ? options.public : undefined;
  // A refused request is the mount's 404, from its error table.
  const allowed = async (request: FastifyRequest): Promise<void> => {
    if (gate && !(await gate(request))) throw new NotFoundError();
  };
  for (const version of input.versions) {
    const document = cached(() => input.build(version));
    const actorDocument = actorDocuments((actor) => input.build(version, actor));
    api.get(`/resources/${version}/openapi.json`, async (request, reply) => {
      await allowed(request);
      // With a credential, the document as its actor sees it: made per request, kept by no shared cache.
      const own = input.carriesCredentials(request);
      const { body, etag } = own ? actorDocument(await input.actorOf(version, request, reply)) : document();
      reply.header('etag', etag).header('cache-control', own ? 'private, no-cache' : 'no-cache').header('vary', CREDENTIAL_HEADERS);
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });
    if (options.docs === true) {
      const prefix = `/resources/${version}/docs`;
      const reference = lazyReference(`${mountPath}${prefix}`, { url: `${mountPath}/resources/${version}/openapi.json`, title: `Panel API ${version}` });
      const forward = async (request: FastifyRequest, reply: FastifyReply) => {
        await allowed(request);
        // Only the method and URL reach the reference: its pages depend on nothing else, and the
        // client's headers (a Host it cannot parse) must not make it fail.
        const answer = await (await reference()).inject({ method: request.method as 'GET' | 'HEAD', url: request.url, headers: { host: REFERENCE_HOST } });
        // Its own error bodies carry Node's codes: a failure is the mount's 500, from the error table.
        if (answer.statusCode >= 500) throw new Error(`The API reference answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`);
        reply.code(answer.statusCode);
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_HEADERS.has(name) && !name.startsWith('access-control-')) reply.header(name, value);
        }
        // A redirect has no body: sending an empty buffer would give it a content type of its own.
        return answer.rawPayload.length === 0 ? reply.send() : reply.send(answer.rawPayload);
      };
      // Only the reference's own page and script: its other routes (the document again, as JSON
      // and YAML, with `Access-Control-Allow-Origin: *`) stay the API's JSON 404.
      for (const path of REFERENCE_PATHS) api.get(`${prefix}${path}`, forward);
    }
  }
}
