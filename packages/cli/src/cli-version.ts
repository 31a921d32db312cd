import { readFileSync } from 'node:fs';

/**
 * The version of `@panel/api-cli` that runs, read from its own package.json (one folder above
 * `src/` in the repository and above `dist/` once installed).
 */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
