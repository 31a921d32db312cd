import { ResourcesController } from '@panel/api';

/**
 * The base of every generated `v1` controller: put authentication and global
 * customization here.
 *
 * The API is closed until you open it: the inherited `setupAuthentication()` throws
 * `AuthenticationError`, so every request gets 401 `{ "error": "Unauthorized" }`.
 * Override it to accept your credentials, and make `currentUser()` return the user the
 * policies should see, for example:
 *
 * ```ts
 * private user: User | undefined;
 *
 * override async setupAuthentication(): Promise<void> {
 *   const token = /^Bearer (.+)$/.exec(this.request.headers.authorization ?? '')?.[1];
 *   this.user = token ? await findUserByToken(token) : undefined;
 *   if (!this.user) throw new AuthenticationError();
 * }
 *
 * override async currentUser(): Promise<User | null> {
 *   return this.user ?? null;
 * }
 * ```
 *
 * (`User` and `findUserByToken` are your app's; `AuthenticationError` comes from `@panel/api`.)
 */
export class BaseResourcesController extends ResourcesController {}
