import { Policy, PolicyScope } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

interface PostRow {
  author_id: number | null;
}

/** Admins see every post; others see published posts and their own. Update: admin or author. Destroy: admin. */
export class BlogPostPolicy extends Policy<DemoUser, PostRow> {
  static override Scope = class extends PolicyScope<DemoUser> {
    override resolve() {
      if (isAdmin(this.user)) return this.query;
      const userId = this.user!.id;
      return this.query.where((eb) => eb.or([eb('r.published', '=', true), eb('r.author_id', '=', userId)]));
    }
  };

  override index() {
    return true;
  }

  override show() {
    return true;
  }

  override create() {
    return true;
  }

  override update() {
    return isAdmin(this.user) || (this.user !== null && this.record?.author_id === this.user.id);
  }

  override destroy() {
    return isAdmin(this.user);
  }
}
