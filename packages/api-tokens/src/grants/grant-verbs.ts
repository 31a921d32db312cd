/** The verbs of a permission grant; they map 1:1 to the API's actions. */
export const GRANT_VERBS = ['index', 'show', 'create', 'update', 'destroy'] as const;

/** One verb of a grant. */
export type GrantVerb = (typeof GRANT_VERBS)[number];

/** The only verbs the default permissions list may hold: writes always need a Bearer token. */
export const DEFAULT_LIST_VERBS: readonly GrantVerb[] = ['index', 'show'];

/** A permission grant: a (resource, verb) pair, the resource named by its route key. */
export interface Grant {
  readonly resource: string;
  readonly verb: GrantVerb;
}

/** Whether a string is one of the grant verbs. */
export function isGrantVerb(value: unknown): value is GrantVerb {
  return typeof value === 'string' && (GRANT_VERBS as readonly string[]).includes(value);
}

/** A grant as one string, `<route_key>:<verb>`, the form the panel's forms post. */
export function grantKey(grant: Grant): string {
  return `${grant.resource}:${grant.verb}`;
}
