import { Policy } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

interface ProfileRow {
  user_id: number;
}

/** Profiles are public to authenticated users; their owner or an admin edits them; admins create and destroy. */
export class ProfilePolicy extends Policy<DemoUser, ProfileRow> {
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
    return isAdmin(this.user) || (this.user !== null && this.record?.user_id === this.user.id);
  }

  override destroy() {
    return isAdmin(this.user);
  }
}
