import { secretsEqual } from '@panel/core';
import { AuthenticationError, ResourcesController } from '@panel/api';
import { demoKeys } from '../../../../../../src/demo-keys.js';
import type { DemoUser } from '../../../../../panel/policies/demo-user.js';

/** The id of the user whose key matches, compared in constant time (every key is checked). */
function userIdForKey(presented: string): number | undefined {
  let found: number | undefined;
  for (const [key, userId] of demoKeys()) {
    if (secretsEqual(presented, key)) found = userId;
  }
  return found;
}

const sessionUserId = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/**
 * The base of every generated `v1` controller. The demo accepts `Authorization: ApiKey <key>`
 * (`demo-admin-key` is user 1, `demo-reader-key` is user 2) or the panel's session cookie;
 * anything else is 401.
 */
export class BaseResourcesController extends ResourcesController {
  protected user: DemoUser | undefined;

  override async setupAuthentication(): Promise<void> {
    const header = this.request.headers.authorization;
    const key = /^ApiKey (\S+)$/.exec(header ?? '')?.[1];
    // An API key when one is sent; otherwise the panel's signed-in session (empty for an
    // unsafe request without the session's CSRF token, so another site cannot write with it).
    const userId = header !== undefined ? (key === undefined ? undefined : userIdForKey(key)) : sessionUserId(this.session.userId);
    if (userId === undefined) throw new AuthenticationError();
    this.user = await this.panel.database.db
      .selectFrom('users')
      .select(['id', 'name', 'admin'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!this.user) throw new AuthenticationError();
  }

  override async currentUser(): Promise<DemoUser | null> {
    return this.user ?? null;
  }
}
