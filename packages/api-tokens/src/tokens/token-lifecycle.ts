import { RecordInvalidError, type ErrorMessages } from '@panel/core';
import { mintToken, tokenDigest } from '../secret/token-secret.js';
import { TOKENS_TABLE } from '../schema/api-tokens-schema.js';
import type { Grant } from '../grants/grant-verbs.js';
import { insertGrants } from '../grants/token-grants.js';
import type { StoredTokenStatus } from './token-status.js';
import type { CreateTokenInput } from './token-types.js';
import { writeAndAnnounce, type TokenTables } from './token-tables.js';

const MAX_NAME_LENGTH = 120;

/** A new token's name and expiry, checked: a `RecordInvalidError` with per-field messages when they are not valid. */
export function checkNewToken(input: CreateTokenInput): { name: string; expiresAt: Date | null } {
  const errors: ErrorMessages = {};
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') errors.name = ["can't be blank"];
  else if ([...name].length > MAX_NAME_LENGTH) errors.name = [`is too long (maximum is ${MAX_NAME_LENGTH} characters)`];
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime()))) errors.expires_at = ['is not a valid datetime'];
  if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
  return { name, expiresAt };
}

/** Inserts a token and its grants in one transaction; returns its id and the secret (stored only as its digest). */
export async function insertToken(tables: TokenTables, input: { name: string; expiresAt: Date | null; createdById: number | null; grants: readonly Grant[]; pepper: string }): Promise<{ id: number; secret: string }> {
  const { secret, publicId } = mintToken();
  const id = await tables.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto(TOKENS_TABLE)
      .values({ public_id: publicId, name: input.name, token_digest: tokenDigest(secret, input.pepper), expires_at: input.expiresAt, created_by_id: input.createdById, last_used_at: null, revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertGrants(trx, row.id, input.grants);
    return row.id;
  });
  return { id, secret };
}

/**
 * Moves a token from one of `from` to `to` unless it has expired; whether it did. Every process
 * hears of it (`{ kind: 'token', id }`), so a disabled token is refused everywhere within the
 * cache's bound.
 */
export async function changeTokenStatus(tables: TokenTables, id: number, to: StoredTokenStatus, from: readonly StoredTokenStatus[]): Promise<boolean> {
  const now = tables.now();
  return writeAndAnnounce(tables, async (trx, announce) => {
    const updated = await trx
      .updateTable(TOKENS_TABLE)
      .set({ status: to })
      .where('id', '=', id)
      .where('status', 'in', from)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .returning('id')
      .executeTakeFirst();
    if (updated) announce({ kind: 'token', id });
    return updated !== undefined;
  });
}

/** Revokes a token for good (any status → revoked); every process hears of it. */
export async function revokeToken(tables: TokenTables, id: number): Promise<void> {
  const now = tables.now();
  await writeAndAnnounce(tables, async (trx, announce) => {
    const updated = await trx.updateTable(TOKENS_TABLE).set({ status: 'revoked', revoked_at: now }).where('id', '=', id).where('status', '<>', 'revoked').returning('id').executeTakeFirst();
    if (updated) announce({ kind: 'token', id });
  });
}
