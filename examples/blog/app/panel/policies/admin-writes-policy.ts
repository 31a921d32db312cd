import { Policy } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

/** The demo's common ground: everyone may list and show, only admins create, update and destroy. */
export class AdminWritesPolicy<Row = Record<string, unknown>> extends Policy<DemoUser, Row> {
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
