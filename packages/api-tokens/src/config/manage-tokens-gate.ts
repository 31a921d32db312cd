import { Current } from '@panel/core';

/**
 * The `manageTokensIf` gate: a one-argument function given the signed-in user, or a
 * zero-argument function that reads `Current.user`. It may be async.
 */
export type ManageTokensIf = ((user: unknown) => unknown) | (() => unknown);

/** The default gate: nobody manages tokens until the app says who may. */
export const DENY_EVERYONE: ManageTokensIf = () => false;

/**
 * Whether `user` may manage tokens and the default permissions list. Fail-closed, as the spec
 * says: "any result other than `true`, including a raised exception such as a nil user, denies".
 * `onError` hears what a throwing gate threw (to log it); the answer is still no.
 *
 * @example
 * await mayManageTokens((user) => (user as { admin: boolean }).admin, currentUser); // true for an admin
 */
export async function mayManageTokens(gate: ManageTokensIf, user: unknown, onError?: (error: unknown) => void): Promise<boolean> {
  try {
    const result = gate.length === 0
      ? await Current.run(async () => {
          Current.user = user;
          return (gate as () => unknown)();
        })
      : await gate(user);
    return result === true;
  } catch (error) {
    onError?.(error);
    return false;
  }
}
