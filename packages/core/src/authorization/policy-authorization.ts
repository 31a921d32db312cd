import type { AuthorizationClient, PanelPlugin, PolicyAction } from './authorization-client.js';
import type { Policy, PolicyClass, PolicyScope } from './policy.js';

/** The identifier of Panel's policy library, for the `authorizationClient` option. */
export const POLICIES_CLIENT = 'policies';

/**
 * The policy library as a panel plug-in: each resource's `static policy` class answers
 * `authorize`, and its `Scope` narrows queries. A resource without a policy is not restricted.
 *
 * @example
 * await createPanel({ database, plugins: [policyAuthorization()], authorizationClient: 'policies',
 *   license: { features: ['api', 'authorization'] } });
 */
export function policyAuthorization(): PanelPlugin {
  const policyOf = (resourceClass: unknown): PolicyClass | undefined => (resourceClass as { policy?: PolicyClass }).policy;
  const client: AuthorizationClient = {
    identifier: POLICIES_CLIENT,
    async authorize({ user, resource, action, record }) {
      const PolicyType = policyOf(resource.resourceClass);
      if (!PolicyType) return true;
      const policy = new PolicyType(user as never, record as never) as unknown as Policy;
      return (await policy[action as PolicyAction]()) === true;
    },
    async permittedAttributes({ user, resource, action, record }) {
      const PolicyType = policyOf(resource.resourceClass);
      if (!PolicyType) return undefined;
      const policy = new PolicyType(user as never, record as never) as unknown as Policy;
      return typeof policy.permittedAttributes === 'function' ? await policy.permittedAttributes(action) : undefined;
    },
    scope({ user, resource, query }) {
      const PolicyType = policyOf(resource.resourceClass);
      if (!PolicyType) return query;
      return (new PolicyType.Scope(user as never, query) as unknown as PolicyScope).resolve();
    },
  };
  return Object.freeze({ kind: 'authorization' as const, client });
}
