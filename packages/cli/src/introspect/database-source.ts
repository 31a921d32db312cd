import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '../messages.js';

/** The database `init` reads: a PostgreSQL URL, or the folder of an existing PGlite database. */
export type DatabaseSource = { readonly kind: 'postgres'; readonly url: string } | { readonly kind: 'pglite'; readonly folder: string };

/**
 * What `--from-database` (or `--database`) names, or the one-line reason it cannot be read.
 * Checked before anything opens it: PGlite creates a missing data folder, and a `mysql://…`
 * taken for a folder would be created as one, while `init` (and `init --check` above all)
 * must write nothing it was not asked to.
 *
 * @example
 * databaseSource('postgres://postgres@127.0.0.1:5432/shop'); // { kind: 'postgres', url: … }
 * databaseSource('./data/pglite'); // { kind: 'pglite', folder: './data/pglite' } when it holds PG_VERSION
 */
export function databaseSource(value: string): DatabaseSource | { readonly problem: string } {
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== 'file') return { problem: messages.initUnsupportedScheme(scheme) };
  const folder = scheme === undefined ? value : value.slice('file://'.length);
  if (!existsSync(folder)) return { problem: messages.initNoPgliteFolder(folder) };
  if (!statSync(folder).isDirectory() || !existsSync(join(folder, 'PG_VERSION'))) return { problem: messages.initNotPgliteFolder(folder) };
  return { kind: 'pglite', folder };
}
