import type { CompiledField, CompiledResource, View } from '@panel/core';
import type { RequestContext } from '../pipeline/request-context.js';
import { includableAssociation } from '../querying/include-modifier.js';
import type { IncludeGraph } from '../querying/include-params.js';
import type { QueryableFields } from '../querying/queryable-fields.js';
import { publicTargetOmits } from './request-gate.js';

/**
 * The resource graph as one request's actor sees it, for `include`: every answer comes from
 * the controller's `queryableFields` (the fields this actor reads on every record of a view:
 * field rules, hidden fields, Edition B's associations without a read grant), the same function
 * `fields=`, `sort_by` and filters ask. An association is includable when the actor reads it on
 * the view, its type embeds records, it is not `includable: false`, its target is served in
 * this version, and the actor may read the target (Edition B's grant; a public route's actor
 * reads no target the gate guards) — else it is answered
 * exactly like an association that does not exist.
 */
export function includeGraphOf(context: RequestContext): IncludeGraph {
  const { controller, panel, route, actor } = context;
  // Asked several times per path (includable, selectable, defaults, sortable): once per resource and view for the request.
  const asked = new Map<string, QueryableFields>();
  const queryable = (resource: CompiledResource, view: View): QueryableFields => {
    const key = `${resource.name}\u0000${view}`;
    let fields = asked.get(key);
    if (!fields) {
      fields = controller.queryableFields(resource, view);
      asked.set(key, fields);
    }
    return fields;
  };
  const reachable = (field: CompiledField): boolean => {
    if (!includableAssociation(field) || !route.served.has(field.target!)) return false;
    // A public route's actor is closed to what the gate guards (`publicActor`): a public parent never opens a gated target.
    return actor.mayRead?.(panel.resource(field.target!)) ?? true;
  };
  // A record of a public target is its show as this actor gets it: no association to what the gate guards.
  const shown = (resource: CompiledResource, view: View) => queryable(resource, view).read.filter((field) => !publicTargetOmits(route.guarded, resource, field));
  return {
    includable: (resource, view) => shown(resource, view).filter(reachable),
    selectable: (resource) => shown(resource, 'show'),
    defaults: (resource) => {
      const onShow = new Set(shown(resource, 'show'));
      return shown(resource, 'index').filter((field) => onShow.has(field));
    },
    sortable: (resource) => queryable(resource, 'index').sort,
    resource: (name) => panel.resource(name),
  };
}
