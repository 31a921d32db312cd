import type { FastifyRequest } from 'fastify';
import type { CompiledField, CompiledResource, Panel } from '@panel/core';
import { AuthenticationError, ForbiddenError, type PermitInput, type RequestActor, type RequestGate } from '@panel/api';
import type { AuthenticatedToken } from '../tokens/token-service.js';
import type { GrantVerb } from '../grants/grant-verbs.js';
import { bearerToken } from './bearer-token.js';
import { tokenGrants, type EditionB, type GrantSet } from './edition-b.js';
import { signFileUrls, storedFileName } from './signed-file-urls.js';


/** Edition B's actor: on the token path, the token and its grants; on the code-hook path, the default permissions list. */
interface TokenActor extends RequestActor {
  readonly credential: AuthenticatedToken | undefined;
}

/** Whether `grants` lets the actor read a resource (`index` or `show`). */
const reads = (grants: GrantSet, routeKey: string) => grants.allows(routeKey, 'index') || grants.allows(routeKey, 'show');

/**
 * The actor of an Edition B request. `grants` undefined: authenticated, not yet permitted (a
 * traversal's public target keeps this one). On the token path the grant matrix is
 * authoritative (the policies do not govern it) and file URLs are signed.
 */
function tokenActor(panel: Panel, edition: EditionB, token: AuthenticatedToken | undefined, grants: GrantSet | undefined): TokenActor {
  return {
    credential: token,
    followsPolicies: token === undefined,
    mayRead: grants ? (target: CompiledResource) => reads(grants, target.naming.routeKey) : undefined,
    // As `permit` decides: a traversal needs `show` on its parent, a list `index`.
    mayCall: grants ? (resource: CompiledResource, action: 'index' | 'related') => grants.allows(resource.naming.routeKey, action === 'related' ? 'show' : 'index') : undefined,
    // "Omitted entirely when the actor has no read grant on the target resource."
    omits: (field: CompiledField) => grants !== undefined && field.target !== undefined && field.kind.association !== undefined && !reads(grants, panel.resource(field.target).naming.routeKey),
    presents: (field: CompiledField, json: unknown) => (token && field.kind.attachments !== undefined ? signFileUrls(json, edition) : json),
    // A token is given signed URLs only: it names a file to remove by one of them.
    storedFileName: token ? (name: string) => storedFileName(name, edition) : undefined,
  };
}

/** An upload needs a token with a grant to write (create or update) a resource that has a file field. */
function permitUpload(panel: Panel, edition: EditionB, token: AuthenticatedToken | undefined): RequestActor {
  if (!token) throw new ForbiddenError();
  const grants = tokenGrants(token);
  const writable = [...panel.resources.values()].some(
    (resource) => resource.fields.some((field) => field.kind.attachments !== undefined) && (grants.allows(resource.naming.routeKey, 'create') || grants.allows(resource.naming.routeKey, 'update')),
  );
  if (!writable) throw new ForbiddenError();
  return tokenActor(panel, edition, token, grants);
}

/** The grant verbs a batch body's operations use (`delete` is `destroy`); a batch is a write, so at least `create`-like verbs apply even to a malformed body. */
function batchVerbs(body: unknown): GrantVerb[] {
  const operations = (body as { operations?: unknown } | null)?.operations;
  const verbs = new Set<GrantVerb>();
  for (const operation of Array.isArray(operations) ? operations : []) {
    const op = (operation as { op?: unknown } | null)?.op;
    verbs.add(op === 'delete' ? 'destroy' : op === 'update' ? 'update' : 'create');
  }
  return verbs.size === 0 ? ['create'] : [...verbs];
}

/**
 * Edition B's gate, the one place the API meets tokens (spec "Order of checks" and
 * "Permissions"): the gate stage of the Edition B extension, in the mounts that list it.
 *
 * - `authenticate`: a Bearer token in `Authorization` is checked before `setupAuthentication`,
 *   and a present Bearer token always wins: a malformed, unknown, disabled, expired or revoked
 *   one is the same 401 and never falls through to the hook. Without a Bearer header the
 *   controller's `setupAuthentication` runs.
 * - `permit`, before any record is loaded (so a client cannot probe record existence): on the
 *   token path the token's grants decide; on the code-hook path the default permissions list
 *   does, and writes always need a Bearer token. No grant: 403 `{ "error": "Forbidden" }`. The
 *   target's controller of a traversal asks for `index` or `show` on the target resource;
 *   `related` itself needs `show` on its own.
 */
export function tokenGate(panel: Panel, edition: EditionB): RequestGate {
  return {
    async authenticate(request: FastifyRequest) {
      const presented = bearerToken(request.headers.authorization);
      if (presented === undefined) return undefined;
      const token = await edition.tokens.authenticate(presented);
      if (!token) throw new AuthenticationError();
      return tokenActor(panel, edition, token, undefined);
    },
    async permit({ request, resource, action, traversing, authenticated }: PermitInput) {
      const token = (authenticated as TokenActor | undefined)?.credential;
      if (action === 'upload') return permitUpload(panel, edition, token);
      // A batch needs the grant of every verb its operations use, before any of them runs.
      const verbs: GrantVerb[] = action === 'batch' ? batchVerbs(request.body) : [action === 'related' ? 'show' : (action as GrantVerb)];
      if (!token && verbs.some((verb) => verb !== 'index' && verb !== 'show')) throw new ForbiddenError();
      const grants = token ? tokenGrants(token) : await edition.defaultGrants();
      const routeKey = resource.naming.routeKey;
      if (!(traversing ? reads(grants, routeKey) : verbs.every((verb) => grants.allows(routeKey, verb)))) throw new ForbiddenError();
      return tokenActor(panel, edition, token, grants);
    },
  };
}
