import type { Panel } from '@panel/core';
import { resourceLabels } from '@panel/panel-ui';
import { GRANT_VERBS, grantKey, type Grant, type GrantVerb } from '../grants/grant-verbs.js';

/** The view model of the grant checkboxes. */
export interface GrantMatrixModel {
  readonly legend: string;
  readonly hint?: string;
  readonly error?: string;
  readonly verbs: readonly GrantVerb[];
  readonly rows: readonly { humanName: string; cells: readonly { id: string; verb: GrantVerb; value: string; checked: boolean }[] }[];
}

/** The matrix of the panel's resources × `verbs`, with `checked` ticked (grant keys `<route_key>:<verb>`). */
export function grantMatrix(panel: Panel, checked: Iterable<string>, options: { legend: string; hint?: string; error?: string | undefined; verbs?: readonly GrantVerb[] }): GrantMatrixModel {
  const ticked = new Set(checked);
  const verbs = options.verbs ?? GRANT_VERBS;
  const rows = resourceLabels(panel).map(({ routeKey, label: humanName }) => {
    const cells = verbs.map((verb) => ({ id: `grant-${routeKey}-${verb}`, verb, value: `${routeKey}:${verb}`, checked: ticked.has(`${routeKey}:${verb}`) }));
    return { humanName, cells };
  });
  return { legend: options.legend, ...(options.hint ? { hint: options.hint } : {}), ...(options.error ? { error: options.error } : {}), verbs, rows };
}

/** "blog_posts: index, show; comments: index" ("all verbs" for a resource with every verb), or "none". */
export function grantsSummary(grants: readonly Grant[]): string {
  if (grants.length === 0) return 'none';
  const byResource = new Map<string, string[]>();
  for (const grant of grants) byResource.set(grant.resource, [...(byResource.get(grant.resource) ?? []), grant.verb]);
  return [...byResource].map(([resource, verbs]) => `${resource}: ${verbs.length === GRANT_VERBS.length ? 'all verbs' : verbs.join(', ')}`).join('; ');
}

/** The grant keys of a list of grants. */
export const grantKeys = (grants: readonly Grant[]) => grants.map(grantKey);
