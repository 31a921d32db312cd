import { GrantInvalidError } from '../errors/api-tokens-errors.js';
import { DEFAULT_LIST_VERBS, GRANT_VERBS, grantKey, isGrantVerb, type Grant } from './grant-verbs.js';

/** What a grant may name: the route keys of the panel's resources, when the service knows them. */
export interface GrantRules {
  /** The route keys grants may name; undefined accepts any route key. */
  readonly resources?: readonly string[] | undefined;
}

/** Grants as the service accepts them: objects, or `<route_key>:<verb>` strings as forms post them. */
export type GrantInput = Grant | string;

function parseGrant(input: GrantInput): Grant {
  if (typeof input === 'string') {
    const at = input.lastIndexOf(':');
    const verb = input.slice(at + 1);
    if (at <= 0 || !isGrantVerb(verb)) {
      throw new GrantInvalidError(`A grant must read "<route_key>:<verb>" with a verb among ${GRANT_VERBS.join(', ')}, instead got "${input}".`);
    }
    return { resource: input.slice(0, at), verb };
  }
  if (typeof input !== 'object' || input === null || typeof input.resource !== 'string' || !isGrantVerb(input.verb)) {
    throw new GrantInvalidError(`A grant must be { resource, verb } with a verb among ${GRANT_VERBS.join(', ')}, instead got ${JSON.stringify(input)}.`);
  }
  return { resource: input.resource, verb: input.verb };
}

/**
 * Parses, checks and de-duplicates grants. An unknown verb or resource is refused; with
 * `defaultList`, so is any verb but `index` and `show` (spec: "The default permissions list
 * may grant only index and show; writes always need a Bearer token.").
 */
export function normalizeGrants(inputs: readonly GrantInput[], rules: GrantRules, defaultList = false): Grant[] {
  const grants = new Map<string, Grant>();
  for (const input of inputs) {
    const grant = parseGrant(input);
    if (rules.resources !== undefined && !rules.resources.includes(grant.resource)) {
      throw new GrantInvalidError(`A grant names the resource "${grant.resource}", which the panel does not define. Known resources: ${rules.resources.join(', ') || 'none'}.`);
    }
    if (defaultList && !DEFAULT_LIST_VERBS.includes(grant.verb)) {
      throw new GrantInvalidError(`The default permissions list may grant only index and show, instead got "${grantKey(grant)}": writes always need a Bearer token.`);
    }
    grants.set(grantKey(grant), grant);
  }
  return [...grants.values()].sort((a, b) => grantKey(a).localeCompare(grantKey(b)));
}
