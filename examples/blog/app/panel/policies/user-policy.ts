import { Policy, PolicyScope } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

interface UserRow {
  id: number;
}

/** Admins see every user, others only themselves; update by an admin or oneself; create and destroy by admins. */
export class UserPolicy extends Policy<DemoUser, UserRow> {
  static override Scope = class extends PolicyScope<DemoUser> {
    override resolve() {
      return isAdmin(this.user) ? this.query : this.query.where('r.id', '=', this.user!.id);
    }
  };

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
    return isAdmin(this.user) || this.record?.id === this.user?.id;
  }

  override destroy() {
    return isAdmin(this.user);
  }
}
