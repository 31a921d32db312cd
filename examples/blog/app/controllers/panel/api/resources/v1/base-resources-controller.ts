import { createHash, timingSafeEqual } from 'node:crypto';
import { AuthenticationError, ResourcesController } from '@panel/api';
import { demoKeys } from '../../../../../../src/demo-keys.js';
import type { DemoUser } from '../../../../../panel/policies/demo-user.js';


const digest = (text: string) => createHash('sha256').update(text).digest();

/** The id of the user whose key matches, compared in constant time (every key is checked). */
function userIdForKey(presented: string): number | undefined {
  const presentedDigest = digest(presented);
  let found: number | undefined;
  for (const [key, userId] of demoKeys()) {
    if (timingSafeEqual(presentedDigest, digest(key))) found = userId;
  }
  return found;
}

/**
 * The base of every generated `v1` controller. The demo accepts `Authorization: ApiKey <key>`:
 * `demo-admin-key` is user 1, `demo-reader-key` is user 2; anything else is 401.
 */
export class BaseResourcesController extends ResourcesController {
  protected user: DemoUser | undefined;

  override async setupAuthentication(): Promise<void> {
    const key = /^ApiKey (\S+)$/.exec(this.request.headers.authorization ?? '')?.[1];
    const userId = key === undefined ? undefined : userIdForKey(key);
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
