import { PolicyScope } from '@panel/core';
import { AdminWritesPolicy } from './admin-writes-policy.js';
import { isAdmin, type DemoUser } from './demo-user.js';

interface UserRow {
  id: number;
}

/** Admins see every user, others only themselves; update by an admin or oneself; create and destroy by admins. */
export class UserPolicy extends AdminWritesPolicy<UserRow> {
  static override Scope = class extends PolicyScope<DemoUser> {
    override resolve() {
      return isAdmin(this.user) ? this.query : this.query.where('r.id', '=', this.user!.id);
    }
  };

  override update() {
    return isAdmin(this.user) || this.record?.id === this.user?.id;
  }
}
