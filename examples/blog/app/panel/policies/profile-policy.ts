import { AdminWritesPolicy } from './admin-writes-policy.js';
import { isAdmin } from './demo-user.js';

interface ProfileRow {
  user_id: number;
}

/** Profiles are public to authenticated users; their owner or an admin edits them; admins create and destroy. */
export class ProfilePolicy extends AdminWritesPolicy<ProfileRow> {
  override update() {
    return isAdmin(this.user) || (this.user !== null && this.record?.user_id === this.user.id);
  }
}
