import type { FieldDefaultContext, FieldReadonlyContext, FieldVisibleContext } from '@panel/core';
import { isAdmin, type DemoUser } from './demo-user.js';

/**
 * The demo's field rules (OWASP API3:2023, "Broken Object Property Level Authorization"):
 * which fields only an admin writes or reads, and the fields that default to the actor.
 */

/** `readonly:` for a field only admins write (users.admin, users.email, the owner keys). */
export const unlessAdmin = ({ user }: FieldReadonlyContext): boolean => !isAdmin(user as DemoUser | null);

/** `visible:` for a field only admins read. */
export const adminsOnly = ({ user }: FieldVisibleContext): boolean => isAdmin(user as DemoUser | null);

/** `default:` of an owner key on create: the current user (Rails' `current_user.posts.build`). */
export const currentUserId = ({ user }: FieldDefaultContext): number | undefined => (user as DemoUser | null)?.id;

/**
 * `visible:` for a post's view count: admins and the post's author. It reads the record, so it
 * runs once per post answered (for an admin it answers before reading it: once per request),
 * and a non-admin cannot sort by the field (it is not visible on every record).
 */
export const adminsAndAuthor = ({ user, record }: FieldVisibleContext): boolean => {
  const actor = user as DemoUser | null;
  return isAdmin(actor) || (actor !== null && record?.author_id === actor.id);
};

/**
 * `readonly:` for a password: only its own user writes it (an admin sets the first one, on
 * create). It is `confirm: true` besides, so no token or API key writes it at all, and on the
 * panel session it needs a recent confirmation.
 */
export const unlessOwnAccount = ({ user, record }: FieldReadonlyContext): boolean => {
  const actor = user as DemoUser | null;
  if (record === null) return !isAdmin(actor);
  return actor === null || record.id !== actor.id;
};
