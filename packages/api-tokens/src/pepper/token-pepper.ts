import { TokenPepperError } from '../errors/api-tokens-errors.js';

/** The environment variable the pepper is read from when the app passes none. */
export const PEPPER_ENV = 'PANEL_API_TOKEN_PEPPER';

/** The shortest pepper accepted: 32 characters (`openssl rand -hex 32` gives 64). */
export const MIN_PEPPER_LENGTH = 32;

/**
 * Where the pepper comes from: a string from the app's secret store, a function that reads it
 * (called on each use, so a secret loaded after boot is picked up), or nothing (then the
 * environment variable `PANEL_API_TOKEN_PEPPER`).
 */
export type TokenPepperSource = string | (() => string | null | undefined) | null | undefined;

const FIX = `Fix: pass \`pepper\` from your secret store (it takes precedence) or set ${PEPPER_ENV} to ${MIN_PEPPER_LENGTH} or more random characters (for example the output of \`openssl rand -hex 32\`). Changing it later invalidates every token.`;

/**
 * The pepper in force, or a `TokenPepperError` that names the option and the fix. The app's own
 * source wins over the environment variable; a blank or short value counts as missing.
 */
export function resolveTokenPepper(source: TokenPepperSource, env: NodeJS.ProcessEnv = process.env): string {
  const given = typeof source === 'function' ? source() : source;
  const [value, origin] = given !== undefined && given !== null ? [given, 'pepper'] : [env[PEPPER_ENV], PEPPER_ENV];
  if (value === undefined || value === '') {
    throw new TokenPepperError(`Panel API tokens need a pepper, and none is set. ${FIX}`);
  }
  if (typeof value !== 'string' || value.length < MIN_PEPPER_LENGTH) {
    throw new TokenPepperError(`Panel API tokens: ${origin} must be a string of ${MIN_PEPPER_LENGTH} or more characters, instead got ${typeof value === 'string' ? `${value.length} characters` : typeof value}. ${FIX}`);
  }
  return value;
}

/** Whether a pepper is available, without throwing: for the boot-time warning. */
export function pepperProblem(source: TokenPepperSource, env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    resolveTokenPepper(source, env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
