import { Policy } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

interface CommentRow {
  user_id: number | null;
}

/** Every comment is visible; update and destroy by an admin or the comment's user. */
export class CommentPolicy extends Policy<DemoUser, CommentRow> {
  override index() {
    return true;
  }

  override show() {
    return true;
  }

  override create() {
    return this.user !== null;
  }

  override update() {
    return isAdmin(this.user) || (this.user !== null && this.record?.user_id === this.user.id);
  }

  override destroy() {
    return this.update();
  }
}
