import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** The user an API key acts for, as the demo's policies read it. */
export interface BenchUser {
  readonly id: number;
  readonly name: string;
  readonly admin: boolean;
}

/** The hex SHA-256 of a key, as `bench_api_keys.digest` stores it. */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The key of an `Authorization: ApiKey <key>` header, or undefined. */
export const apiKeyOf = (header: string | undefined): string | undefined => /^ApiKey (\S+)$/.exec(header ?? '')?.[1];

/**
 * Every API key of the data set with its user, by digest, read once when a server starts: both
 * servers authenticate a request with a hash and a map look-up, as an app that keeps its keys
 * in memory (or in a signed token) does, so that no statement per request goes to authentication
 * and the census counts the endpoint's own work.
 */
export async function loadBenchKeys(db: Kysely<any>): Promise<ReadonlyMap<string, BenchUser>> {
  const { rows } = await sql<BenchUser & { digest: string }>`select encode(k.digest, 'hex') as digest, u.id, u.name, u.admin
    from bench_api_keys as k join users as u on u.id = k.user_id`.execute(db);
  return new Map(rows.map(({ digest, ...user }) => [digest, user]));
}
