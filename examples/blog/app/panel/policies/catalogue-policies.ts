import { AdminWritesPolicy } from './admin-writes-policy.js';

/**
 * Products: anyone reads (the products API is public for index and show), admins write. The
 * default scope never touches the user, so the public endpoint's null user is safe.
 */
export class ProductPolicy extends AdminWritesPolicy {}

/** Product categories: every authenticated user reads, admins write. */
export class ProductCategoryPolicy extends AdminWritesPolicy {
  override index() {
    return this.user !== null;
  }

  override show() {
    return this.user !== null;
  }
}

/** Tags: anyone reads, admins write. */
export class TagPolicy extends AdminWritesPolicy {}
