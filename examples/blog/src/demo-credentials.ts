import { hashPassword, verifyPassword, type PanelDatabase } from '@panel/core';
import { DEMO_PASSWORD } from '../db/seed.js';

/** The demo's sign-in password: every seeded user's `password` field holds its digest. */
export const demoPassword = () => DEMO_PASSWORD;

/** Checks an email and password; answers the user's id, or null for an unknown email and a wrong password alike. */
export type CredentialsCheck = (email: string, password: string) => Promise<number | null>;

// Verified against when no user has the email, so that an unknown email costs the same scrypt work as a wrong password.
let dummyDigest: Promise<string> | undefined;

/**
 * The demo's credentials check: the user with that email, and the password checked against the
 * `password` field's scrypt digest (`users.password_digest`) in constant time. The check runs for
 * an unknown email too, against a dummy digest, so that both refusals take the same time.
 */
export function verifyDemoCredentials(db: PanelDatabase['db']): CredentialsCheck {
  return async (email, password) => {
    const user = await db.selectFrom('users').select(['id', 'password_digest']).where('email', '=', email.trim()).executeTakeFirst();
    dummyDigest ??= hashPassword('no user has this password');
    const digest = typeof user?.password_digest === 'string' ? user.password_digest : await dummyDigest;
    const matches = await verifyPassword(password, digest);
    return user && matches ? Number(user.id) : null;
  };
}
