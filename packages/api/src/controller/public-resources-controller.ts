import type { PolicyAction, ReadableRecords, ScopeFunction } from '@panel/core';
import { ResourcesController } from './resources-controller.js';

/**
 * A plain framework controller: it serves its resource with no authentication, no permission
 * gate and no policy. **Public**: anyone can read and write every record through it. Edition B
 * (spec "Setup"): "One that inherits a plain framework controller bypasses everything: it is
 * public, unauthenticated and ungated." Extend the app's `BaseResourcesController` instead to
 * keep the Bearer token check, `setupAuthentication`, the grants and the policies.
 *
 * @example
 * // app/controllers/panel/api/resources/v1/product-categories-controller.ts: public on purpose
 * export class ProductCategoriesController extends PublicResourcesController {
 *   static override resourceName = 'ProductCategory';
 * }
 */
export class PublicResourcesController extends ResourcesController {
  /** No gate: neither the Bearer token nor the permission grants are checked. */
  static override gated = false;

  static {
    this.skipBeforeAction('setupAuthentication');
  }

  /** No policy scope: every record. */
  protected override policyScope(): ScopeFunction | undefined {
    return undefined;
  }

  /** No read rules on the ids a write names: every record of every resource. */
  protected override readableRecords(): ReadableRecords | undefined {
    return undefined;
  }

  /** No policy check: every action. */
  protected override async authorize(_action: PolicyAction, _record?: unknown): Promise<void> {}
}
