// The cookie methods of requests and replies (types only: the app registers @fastify/cookie).
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpenedSession, Panel } from '@panel/core';
import { FLASH_COOKIE, loadPanelSession, readPanelSession } from '@panel/api';

/** A panel user as the screens need it: its row, and the name to show. */
export interface PanelUser {
  readonly id: number;
  readonly displayName: string;
  readonly record: Readonly<Record<string, unknown>>;
}

/** Finds the signed-in user's row by id; undefined when it is gone. */
export type LoadPanelUser = (id: number) => Promise<Readonly<Record<string, unknown>> | undefined>;

/** Finds the rows of several users by id at once (a screen that names many, such as the token list's creators); an id that is gone is left out. */
export type LoadPanelUsers = (ids: readonly number[]) => Promise<ReadonlyMap<number, Readonly<Record<string, unknown>>>>;

/** Who is looking at a screen: from the panel session only (a Bearer token never counts). */
export interface PanelViewer {
  readonly session: OpenedSession | null;
  readonly user: PanelUser | null;
  readonly csrfToken: string;
}

// Columns the gate and the screens never need: a password digest does not travel further than the sign-in check.
const CREDENTIAL_COLUMN = /password|digest|secret|token/i;

/** The default `loadUser`: the row of the `users` table with that id, without its credential columns. */
export function usersTable(panel: Panel): LoadPanelUser {
  return async (id) => {
    const row = (await panel.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) as Record<string, unknown> | undefined;
    return row && Object.fromEntries(Object.entries(row).filter(([column]) => !CREDENTIAL_COLUMN.test(column)));
  };
}

/** The default `loadUsers`: the rows of the `users` table with those ids, in one statement, without their credential columns. */
export function usersTableRows(panel: Panel): LoadPanelUsers {
  return async (ids) => {
    const rows = ids.length === 0 ? [] : ((await panel.database.db.selectFrom('users').selectAll().where('id', 'in', [...new Set(ids)]).execute()) as Record<string, unknown>[]);
    return new Map(rows.map((row) => [Number(row.id), Object.fromEntries(Object.entries(row).filter(([column]) => !CREDENTIAL_COLUMN.test(column)))]));
  };
}

/** `loadUsers` from an app's own `loadUser`, when the app gave only that: one call per id (the app's own statements). */
export function eachUser(loadUser: LoadPanelUser): LoadPanelUsers {
  return async (ids) => {
    const users = new Map<number, Readonly<Record<string, unknown>>>();
    for (const id of new Set(ids)) {
      const row = await loadUser(id);
      if (row) users.set(id, row);
    }
    return users;
  };
}

function displayName(record: Readonly<Record<string, unknown>>, id: number): string {
  for (const key of ['name', 'email']) if (typeof record[key] === 'string' && record[key] !== '') return record[key] as string;
  return `User ${id}`;
}

/**
 * The viewer of this request, read once per request: the panel session and its user (null when
 * there is no session or its user no longer exists). What the viewer may see beyond the
 * resources (an extension's screens) each extension decides (`SidebarSection.shows`). With
 * `reseal: false` a session due for it is not sealed again (`readPanelSession`): the reply
 * carries no cookie until `loadPanelSession` is called.
 */
export async function panelViewer(panel: Panel, loadUser: LoadPanelUser, request: FastifyRequest, reply: FastifyReply, reseal = true): Promise<PanelViewer> {
  const session = await (reseal ? loadPanelSession(panel, request, reply) : readPanelSession(panel, request));
  const userId = session?.data.userId;
  const record = typeof userId === 'number' ? await loadUser(userId) : undefined;
  const user = record && typeof userId === 'number' ? { id: userId, displayName: displayName(record, userId), record } : null;
  const csrfToken = typeof session?.data.csrfToken === 'string' ? session.data.csrfToken : '';
  return { session, user, csrfToken };
}

/** The flash of this request (a notice the screens set, or the Edition A policy-denial flash), cleared once read. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply, rootPath: string): { text: string; alert: boolean } | null {
  const notice = request.cookies[NOTICE_COOKIE];
  const alert = request.cookies[FLASH_COOKIE];
  if (notice) reply.clearCookie(NOTICE_COOKIE, { path: rootPath });
  if (alert) reply.clearCookie(FLASH_COOKIE, { path: rootPath });
  if (alert) return { text: alert, alert: true };
  return notice ? { text: notice, alert: false } : null;
}

/** The cookie of the screens' own notices ("Token disabled."); not secret, shown once. */
export const NOTICE_COOKIE = 'panel_notice';

/** Sets the notice the next screen shows. */
export function setNotice(reply: FastifyReply, rootPath: string, text: string): void {
  reply.setCookie(NOTICE_COOKIE, text, { path: rootPath, httpOnly: true, sameSite: 'lax' });
}
