import { secretsEqual, type PanelDatabase } from '@panel/core';

/** The demo's sign-in password (every seeded user has it); overridable by env. */
export const demoPassword = (env: NodeJS.ProcessEnv = process.env) => env.PANEL_DEMO_PASSWORD || 'demo-password';

/** Checks an email and password; answers the user's id, or null for an unknown email and a wrong password alike. */
export type CredentialsCheck = (email: string, password: string) => Promise<number | null>;

/**
 * The demo's credentials check: the user with that email, and the demo password compared in
 * constant time. The comparison runs for an unknown email too, so that both refusals take the
 * same time. An app checks a password digest here instead (the `password` field's).
 */
export function verifyDemoCredentials(db: PanelDatabase['db']): CredentialsCheck {
  return async (email, password) => {
    const user = await db.selectFrom('users').select(['id']).where('email', '=', email.trim()).executeTakeFirst();
    const matches = secretsEqual(password, demoPassword());
    return user && matches ? Number(user.id) : null;
  };
}
