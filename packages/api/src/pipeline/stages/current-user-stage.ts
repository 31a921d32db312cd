import { Current } from '@panel/core';
import { logUserIdentity } from '../../controller/request-log-identity.js';
import { callMethod, isThenable } from '../call-method.js';
import type { RequestContext } from '../request-context.js';
import type { Stage } from '../request-context.js';

function assign(context: RequestContext, user: unknown): void {
  context.user = user ?? null;
  // The app's view of the actor (the spec's `Panel::Current.user`); the framework reads `context.user`.
  Current.user = context.user;
  logUserIdentity(context.request, context.reply, context.user);
}

/**
 * The current user, after the before-actions: the answer of the panel's `currentUserMethod`
 * (`currentUser()` by default), called on the controller. Not in the list when the panel's
 * `currentUserMethod` is null (then no user is established).
 */
export function currentUserStage(method: string): Stage {
  return {
    name: 'current-user',
    method,
    run(context) {
      const user = callMethod(context.controller, method);
      if (!isThenable(user)) return assign(context, user);
      return Promise.resolve(user).then((resolved) => assign(context, resolved));
    },
  };
}
