import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeysetPosition } from '@panel/core';

/** Which side of its place a cursor asks for: the page after it (`next_cursor`) or before it (`prev_cursor`). */
export type CursorSide = 'after' | 'before';

/** What a cursor holds once opened: the side and the place (values, never a row). */
export interface OpenedCursor {
  readonly side: CursorSide;
  readonly position: KeysetPosition;
}

/** The most characters a cursor parameter may have before it is refused unread. */
export const MAX_CURSOR_LENGTH = 4096;

/** The version of the cursor's format, signed with it: a later format never opens an earlier one by mistake. */
const FORMAT = 'panel-cursor-1';

/** The length of the signature kept in a cursor (bytes of HMAC-SHA256). */
const SIGNATURE_BYTES = 20;

/**
 * Signs and opens the opaque cursors of keyset pagination: `<payload>.<signature>`, both
 * base64url; the payload is the side and the place (`[side, value, id]` as JSON), the signature
 * an HMAC-SHA256 of the payload **and the binding** (the list, its filters and search, its order
 * and the actor, which the cursor does not carry). A cursor altered in any byte, minted for
 * another list or query, or given to another actor opens to nothing, and the caller answers
 * each with the same 400. Keys rotate: the first signs, every one opens (a key is retired by
 * removing it, which ends the cursors it signed); compared in constant time.
 *
 * A cursor only positions: it is never trusted for authorization (the scope, grants and
 * filters are applied again on every page).
 */
export class CursorCodec {
  readonly #keys: readonly Buffer[];

  /** `keys`: the signing keys, newest first (at least one). */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new TypeError('CursorCodec needs at least one key.');
    this.#keys = keys;
  }

  /** A cursor for the page on `side` of `position`, bound to `binding` (`cursorBinding`). */
  sign(side: CursorSide, position: KeysetPosition, binding: string): string {
    const payload = Buffer.from(JSON.stringify([side === 'after' ? 'a' : 'b', position.value, position.id])).toString('base64url');
    return `${payload}.${signature(this.#keys[0]!, payload, binding).toString('base64url')}`;
  }

  /** The side and place of a cursor this codec signed for `binding`; undefined for anything else (altered, foreign, malformed). */
  open(cursor: string, binding: string): OpenedCursor | undefined {
    if (cursor.length > MAX_CURSOR_LENGTH) return undefined;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) return undefined;
    const payload = cursor.slice(0, dot);
    const text = cursor.slice(dot + 1);
    const given = Buffer.from(text, 'base64url');
    // Only the one spelling this codec writes: another (spare bits set, padding) is an altered cursor.
    if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== text) return undefined;
    // Every key is tried, so the time taken does not say which one signed it.
    let valid = false;
    for (const key of this.#keys) valid = timingSafeEqual(signature(key, payload, binding), given) || valid;
    if (!valid) return undefined;
    return parsePayload(payload);
  }
}

function signature(key: Buffer, payload: string, binding: string): Buffer {
  return createHmac('sha256', key).update(`${FORMAT}\u0000${binding}\u0000${payload}`).digest().subarray(0, SIGNATURE_BYTES);
}

/** The payload of a cursor whose signature held (so only what this server wrote): checked all the same. */
function parsePayload(payload: string): OpenedCursor | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return undefined;
  const [side, value, id] = decoded as unknown[];
  if ((side !== 'a' && side !== 'b') || (value !== null && typeof value !== 'string') || typeof id !== 'string') return undefined;
  return { side: side === 'a' ? 'after' : 'before', position: { value, id } };
}

/**
 * What a cursor is bound to, as one string: the list (resource, or a traversal's parent and
 * association), the query that shapes it (every `filter[…]` and `q` value, by literal key, in a
 * fixed order), the order actually applied, and the actor (`token:<id>`, `user:<id>`, or
 * `public`). Any of them different: the cursor does not open.
 */
export function cursorBinding(input: { list: string; values: ReadonlyMap<string, readonly string[]>; order: { column: string; direction: string }; actor: string }): string {
  const query = [...input.values]
    .filter(([key]) => key === 'q' || key.startsWith('filter'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, values]) => [key, values]);
  return JSON.stringify([input.list, query, input.order.column, input.order.direction, input.actor]);
}

/** The least characters of a cursor secret, as for the session's. */
export const MIN_CURSOR_SECRET_LENGTH = 32;

/**
 * The cursor keys of a mount: from `cursorSecret` (a string, or a list whose first signs:
 * rotation), else derived from the panel's `sessionSecret` (HKDF, so a cursor key never opens
 * a session nor the other way), else one random key for this process — cursors then do not
 * survive a restart nor cross to another process, which `ephemeral` says so the mount can warn.
 */
export function cursorKeys(input: { cursorSecret?: string | readonly string[] | undefined; sessionSecret?: string | readonly string[] | null | undefined }): { keys: Buffer[]; ephemeral: boolean } {
  const derive = (secret: string) => Buffer.from(hkdfSync('sha256', secret, 'panel', 'panel cursor keys', 32));
  const list = (value: string | readonly string[]) => (typeof value === 'string' ? [value] : [...value]);
  if (input.cursorSecret !== undefined) return { keys: list(input.cursorSecret).map(derive), ephemeral: false };
  if (input.sessionSecret !== undefined && input.sessionSecret !== null) return { keys: list(input.sessionSecret).map(derive), ephemeral: false };
  return { keys: [randomBytes(32)], ephemeral: true };
}
