import type { ColumnValues } from '../records/record-row.js';
import type { CompiledResource } from '../resources/compiled-types.js';
import type { RecordId } from '../resources/record-key.js';
import type { OperationContext, OperationInput } from './operation-input.js';

export type { PasswordChange } from './operation-input.js';

/** The table whose ids the panel sessions name (the screens' `usersTable` and the demos sign in from it). */
export const SESSION_USERS_TABLE = 'users';

/** Whether a write of `values` to `resource` changes the password of a user the panel sessions name. */
export function changesSessionPassword(resource: CompiledResource, values: ColumnValues): boolean {
  if (resource.table !== SESSION_USERS_TABLE) return false;
  return resource.fields.some((field) => field.kind.credential === true && field.column !== undefined && Object.hasOwn(values, field.column));
}

/**
 * After a write to a row of the sessions' users table that set a `password` field: every panel
 * session of that user ends (their generation is raised, in the write's transaction when it has
 * one), whatever path wrote it; then `passwordChanged` lets the caller keep its own session (the
 * person who changed their own password stays signed in on that device only).
 */
export async function endSessionsOnPasswordChange(context: OperationContext, input: OperationInput, id: RecordId, values: ColumnValues): Promise<void> {
  const { panel, resource } = context;
  // Panel sessions name users by an integer id: a users table keyed otherwise has no sessions to end.
  if (!panel.sessions || typeof id !== 'number' || !changesSessionPassword(resource, values)) return;
  const generation = await panel.sessions.revokeAll(id, input.transaction);
  await input.passwordChanged?.({ userId: id, generation });
}
