import { createCipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { keysetValueDigest, type KeysetPosition } from '@panel/core';

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
const FORMAT = 'panel-cursor-2';

/** The length of the signature kept in a cursor (bytes of HMAC-SHA256); its first 16 are the encryption's IV. */
const SIGNATURE_BYTES = 20;

/** The payload is padded to a multiple of this many bytes, so a cursor's length does not tell a value's (a timestamp's fraction digits, a short title). */
const PADDED_TO = 64;

/**
 * The longest sort value a cursor carries, as JSON text: a cursor then stays within 1 KiB. A
 * longer value (a long text) is carried as its digest; the page reads the value from the
 * boundary row (`KeysetPosition.digest`).
 */
export const MAX_CARRIED_VALUE = 600;

/** The keys one secret key gives: one encrypts, one signs (never the same key for both); made `KeyObject`s once (core's `secretKeyObject` says why). */
interface CursorKey {
  readonly encrypt: KeyObject;
  readonly sign: KeyObject;
}

/**
 * Seals and opens the opaque cursors of keyset pagination: `<sealed payload>.<signature>`, both
 * base64url. The payload is the side and the place (`[side, value, id]` as JSON, padded); the
 * signature an HMAC-SHA256 of the payload **and the binding** (the list, its filters and search,
 * its order and the actor, which the cursor does not carry); the payload is encrypted with
 * AES-256-CTR under the signature as its IV (a synthetic IV, as AES-SIV does: deterministic
 * authenticated encryption, so one page answers the same cursor, and its ETag holds). The place
 * is a value of the sort column, which the caller may not read (a list's default order on a
 * field only admins see): the cursor never shows it. A cursor altered in any byte, minted for
 * another list or query, or given to another actor opens to nothing, and the caller answers
 * each with the same 400. Keys rotate: the first seals, every one opens (a key is retired by
 * removing it, which ends the cursors it sealed); compared in constant time.
 *
 * A cursor only positions: it is never trusted for authorization (the scope, grants and
 * filters are applied again on every page).
 */
export class CursorCodec {
  readonly #keys: readonly CursorKey[];

  /** `keys`: the secret keys, newest first (at least one); each gives its own encryption and signing keys. */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new TypeError('CursorCodec needs at least one key.');
    this.#keys = keys.map((key) => ({ encrypt: subkey(key, 'panel cursor encryption'), sign: subkey(key, 'panel cursor signature') }));
  }

  /** A cursor for the page on `side` of `position`, bound to `binding` (`cursorBinding`). */
  sign(side: CursorSide, position: KeysetPosition, binding: string): string {
    const digest = position.digest ?? (position.value !== null && JSON.stringify(position.value).length > MAX_CARRIED_VALUE ? keysetValueDigest(position.value) : undefined);
    const payload = digest === undefined ? [side === 'after' ? 'a' : 'b', position.value, position.id] : [side === 'after' ? 'a' : 'b', null, position.id, digest];
    const text = Buffer.from(JSON.stringify(payload));
    const plain = Buffer.concat([text, Buffer.alloc((PADDED_TO - (text.length % PADDED_TO)) % PADDED_TO, ' ')]);
    const key = this.#keys[0]!;
    const tag = signature(key, plain, binding);
    return `${ctr(key, tag, plain).toString('base64url')}.${tag.toString('base64url')}`;
  }

  /** The side and place of a cursor this codec sealed for `binding`; undefined for anything else (altered, foreign, malformed). */
  open(cursor: string, binding: string): OpenedCursor | undefined {
    if (cursor.length > MAX_CURSOR_LENGTH) return undefined;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) return undefined;
    const sealed = decoded(cursor.slice(0, dot));
    const given = decoded(cursor.slice(dot + 1));
    if (sealed === undefined || sealed.length % PADDED_TO !== 0 || given?.length !== SIGNATURE_BYTES) return undefined;
    // Every key is tried, so the time taken does not say which one sealed it.
    let opened: Buffer | undefined;
    for (const key of this.#keys) {
      const plain = ctr(key, given, sealed);
      if (timingSafeEqual(signature(key, plain, binding), given)) opened ??= plain;
    }
    return opened === undefined ? undefined : parsePayload(opened);
  }
}

/** The bytes of a base64url text in the one spelling this codec writes; another (spare bits set, padding, other characters) is an altered cursor. */
function decoded(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function subkey(key: Buffer, info: string): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', key, FORMAT, info, 32)));
}

function signature(key: CursorKey, plain: Buffer, binding: string): Buffer {
  return createHmac('sha256', key.sign).update(`${FORMAT}\u0000${binding}\u0000`).update(plain).digest().subarray(0, SIGNATURE_BYTES);
}

/** AES-256-CTR under the signature's first 16 bytes as the IV: encrypts and decrypts alike. */
function ctr(key: CursorKey, tag: Buffer, bytes: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-ctr', key.encrypt, tag.subarray(0, 16));
  return Buffer.concat([cipher.update(bytes), cipher.final()]);
}

/** The payload of a cursor whose signature held (so only what this server wrote): checked all the same. */
function parsePayload(plain: Buffer): OpenedCursor | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || (decoded.length !== 3 && decoded.length !== 4)) return undefined;
  const [side, value, id, digest] = decoded as unknown[];
  if ((side !== 'a' && side !== 'b') || (value !== null && typeof value !== 'string') || typeof id !== 'string') return undefined;
  // A value too long to carry: its digest, which the page checks against the boundary row's value.
  if (decoded.length === 4) return typeof digest === 'string' && value === null ? { side: side === 'a' ? 'after' : 'before', position: { value, id, digest } } : undefined;
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
