import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The scrypt cost a new digest uses: N = 2^14, r = 8, p = 1 (OWASP's minimum is N = 2^17 with r = 8 for interactive logins at 64 MiB; 2^14 keeps a sign-in near 50 ms on a small server). */
export const PASSWORD_SCRYPT_COST = Object.freeze({ N: 16_384, r: 8, p: 1 });

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// Digests with a higher cost than this are refused rather than run: a stored digest must not
// be able to make a sign-in spend minutes or gigabytes.
const MAX_N = 1 << 20;
const MAX_RP = 64;
const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;

function derive(password: string, salt: Buffer, keyLength: number, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/**
 * A slow, salted digest of a password, in a self-describing format that keeps its own cost:
 * `scrypt$N$r$p$<salt>$<hash>` (salt and hash base64url). The password is NFC-normalized first,
 * so the same password typed on two keyboards verifies.
 *
 * @example
 * const digest = await hashPassword('demo-password'); // 'scrypt$16384$8$1$…$…'
 */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string') throw new TypeError('hashPassword: the password must be a string.');
  const salt = randomBytes(SALT_LENGTH);
  const { N, r, p } = PASSWORD_SCRYPT_COST;
  const hash = await derive(password, salt, KEY_LENGTH, PASSWORD_SCRYPT_COST);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/**
 * Whether a password matches a digest made by `hashPassword`, compared in constant time. A
 * digest that is not in the format (or asks for an unreasonable cost) never matches; it does
 * not throw, so a sign-in answers "wrong email or password" the same way.
 *
 * @example
 * if (!(await verifyPassword(input, user.password_digest))) throw new AuthenticationError();
 */
export async function verifyPassword(password: unknown, digest: unknown): Promise<boolean> {
  if (typeof password !== 'string' || typeof digest !== 'string') return false;
  const match = FORMAT.exec(digest);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > MAX_RP || p < 1 || p > MAX_RP) return false;
  const salt = Buffer.from(match[4]!, 'base64url');
  const expected = Buffer.from(match[5]!, 'base64url');
  const actual = await derive(password, salt, expected.length, { N, r, p });
  return timingSafeEqual(actual, expected);
}
