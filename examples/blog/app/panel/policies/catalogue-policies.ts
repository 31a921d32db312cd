import { Policy } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

/**
 * Products: anyone reads (the products API is public for index and show), admins write. The
 * default scope never touches the user, so the public endpoint's null user is safe.
 */
export class ProductPolicy extends Policy<DemoUser> {
  override index() {
    return true;
  }

  override show() {
    return true;
  }

  override create() {
    return isAdmin(this.user);
  }

  override update() {
    return isAdmin(this.user);
  }

  override destroy() {
    return isAdmin(this.user);
  }
}

/** Product categories: every authenticated user reads, admins write. */
export class ProductCategoryPolicy extends ProductPolicy {
  override index() {
    return this.user !== null;
  }

  override show() {
    return this.user !== null;
  }
}
