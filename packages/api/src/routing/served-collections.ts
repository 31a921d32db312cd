/** What a route entry (`RouteEntry`) says of where it is and what it serves. */
interface RouteLike {
  readonly path: string;
  readonly action: string;
  readonly resourceName: string;
  readonly controller?: { readonly gated: boolean };
}

/** The version of a route (`/resources/<version>/…`); undefined for the uploads route. */
export const routeVersion = (route: Pick<RouteLike, 'path'>): string | undefined => (route.path.startsWith('/resources/') ? route.path.split('/')[2] : undefined);

/** The resources a version serves (those with an index route), each with its collection's path under the mount. */
export function servedCollections(routes: readonly RouteLike[], version: string | undefined): ReadonlyMap<string, string> {
  return new Map(routes.filter((route) => route.action === 'index' && routeVersion(route) === version).map((route) => [route.resourceName, route.path]));
}

/** The resources of a version whose collection a gate guards (its controller is `gated`): none when the mount has no gate. */
export function gatedCollections(routes: readonly RouteLike[], version: string | undefined, gate: unknown): ReadonlySet<string> {
  if (gate === undefined) return new Set();
  return new Set(routes.filter((route) => route.action === 'index' && routeVersion(route) === version && route.controller?.gated === true).map((route) => route.resourceName));
}
