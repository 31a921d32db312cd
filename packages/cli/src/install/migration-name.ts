/** How the migration `panel-api install` writes is named, after the kind suffix. */
export const API_TOKENS_MIGRATION_SUFFIX = 'create-panel-api-tokens';

/** How the migration that adds the token digest index to an older install is named. */
export const DIGEST_INDEX_MIGRATION_SUFFIX = 'index-panel-api-token-digests';

/** Whether a file name is the Edition B migration (or, with `suffix`, another of install's), whatever its number or extension. */
export function isApiTokensMigration(fileName: string, suffix = API_TOKENS_MIGRATION_SUFFIX): boolean {
  return new RegExp(`(^|[-_])${suffix}\\.m?[jt]s$`).test(fileName);
}

/**
 * The next migration's name in a folder: one past the highest number when the folder numbers
 * its files (`0001-…`, `0002-…`), else a UTC timestamp `YYYYMMDDHHMMSS` (Rails' style), so it
 * sorts after every migration there.
 *
 * @example
 * nextMigrationName(['0001-create-tables.ts'], new Date()); // '0002-create-panel-api-tokens'
 */
export function nextMigrationName(existing: readonly string[], now: Date, suffix = API_TOKENS_MIGRATION_SUFFIX): string {
  const numbers = existing.map((name) => /^(\d+)[-_]/.exec(name)?.[1]).filter((n): n is string => n !== undefined);
  const numbered = numbers.filter((n) => n.length < 14);
  if (numbered.length > 0 && numbered.length === numbers.length) {
    const width = Math.max(...numbered.map((n) => n.length));
    const next = Math.max(...numbered.map(Number)) + 1;
    return `${String(next).padStart(width, '0')}-${suffix}`;
  }
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}-${suffix}`;
}
