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
 * protected user: User | undefined;
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
 *
 * A policy that refuses an action answers 302 to the panel's root path (`/panel`) with a
 * flash: the specification's behaviour, made for the panel's pages. For API clients that
 * should get 403 JSON instead, declare in this class:
 *
 * ```ts
 * static {
 *   this.rescueFrom(NotAuthorizedError, function () {
 *     return this.render(403, { error: 'Forbidden' });
 *   });
 * }
 * ```
 *
 * (`NotAuthorizedError` comes from `@panel/api`.)
 */
export class BaseResourcesController extends ResourcesController {}
