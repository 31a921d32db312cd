// @ts-check
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';

/**
 * What the scaffolder writes and does, from the flags (and answers when it asks).
 *
 * @typedef {object} CreateOptions
 * @property {string} directory the app's folder, absolute
 * @property {string} name the app's package name (the folder's name)
 * @property {'a' | 'b'} edition Edition A (API keys from the environment) or B (built-in tokens)
 * @property {boolean} install run `npm install` and `panel-api generate` after writing
 * @property {string | undefined} panelPackages a folder of `@panel/*` tarballs (`npm run pack:all`) to install instead of the registry's
 * @property {'ts' | 'js'} language TypeScript (run with tsx, compiled by tsc) or JavaScript (plain Node)
 * @property {string | undefined} databaseUrl PostgreSQL (`DATABASE_URL` in `.env`); undefined: the embedded PGlite
 */

export const USAGE = `Usage: npm create @panel/app@latest <folder> -- [--yes] [--edition a|b] [--language ts|js] [--database pglite|<postgres url>] [--no-install] [--panel-packages <dir>]

  --yes                   take the defaults, ask nothing
  --edition a|b           a: API keys from the environment (default); b: built-in tokens and grants
  --language ts|js        ts: TypeScript (default); js: JavaScript, run by plain Node, nothing to compile
  --database <where>      pglite: the embedded database, kept in data/pglite (default); or a
                          postgres:// URL, written to .env as DATABASE_URL
  --no-install            write the files only
  --panel-packages <dir>  install @panel/* from the tarballs in <dir> (npm run pack:all) instead of the registry`;

/** A mistake in the command line: the message says what and how to fix it. */
export class UsageError extends Error {}

/**
 * Parses the command line; asks for what is missing unless `--yes` (or no terminal).
 *
 * @param {readonly string[]} argv
 * @param {{ cwd: string; interactive: boolean }} context
 * @returns {Promise<CreateOptions | 'help'>}
 */
export async function createOptions(argv, context) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        yes: { type: 'boolean', short: 'y' },
        edition: { type: 'string' },
        'no-install': { type: 'boolean' },
        'panel-packages': { type: 'string' },
        database: { type: 'string' },
        language: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`${/** @type {Error} */ (error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length > 1) throw new UsageError(`One folder, please; got ${positionals.join(', ')}.\n${USAGE}`);
  const ask = !values.yes && context.interactive ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  try {
    let folder = positionals[0];
    if (folder === undefined && ask) folder = (await ask.question('Folder of the new app (my-admin): ')).trim() || 'my-admin';
    folder ??= 'my-admin';
    let edition = values.edition?.toLowerCase();
    if (edition === undefined && ask) {
      edition = (await ask.question('Edition A (API keys from the environment) or B (built-in tokens and grants)? [A/b] ')).trim().toLowerCase() || 'a';
    }
    edition ??= 'a';
    if (edition !== 'a' && edition !== 'b') throw new UsageError(`--edition must be a or b, instead got "${values.edition}".`);
    let language = values.language?.toLowerCase();
    if (language === undefined && ask) language = (await ask.question('TypeScript or JavaScript? [TS/js] ')).trim().toLowerCase() || 'ts';
    language ??= 'ts';
    if (language === 'typescript') language = 'ts';
    if (language === 'javascript') language = 'js';
    if (language !== 'ts' && language !== 'js') throw new UsageError(`--language must be ts or js, instead got "${values.language}".`);
    let database = values.database?.trim();
    if (database === undefined && ask) {
      database = (await ask.question('Database: the embedded PGlite (no server), or a PostgreSQL URL (postgres://user@host:5432/name)? [pglite] ')).trim() || 'pglite';
    }
    database ??= 'pglite';
    if (database !== 'pglite' && !/^postgres(ql)?:\/\/\S+$/.test(database)) {
      throw new UsageError(`--database must be pglite or a postgres:// URL such as postgres://postgres@127.0.0.1:5432/shop, instead got "${database}".`);
    }
    const directory = resolve(context.cwd, folder);
    const name = directory.split(/[\\/]/).pop()?.toLowerCase().replace(/[^a-z0-9._-]+/g, '-') || 'my-admin';
    return {
      directory,
      name,
      edition,
      install: !values['no-install'],
      databaseUrl: database === 'pglite' ? undefined : database,
      language,
      panelPackages: values['panel-packages'] === undefined ? undefined : resolve(context.cwd, values['panel-packages']),
    };
  } finally {
    ask?.close();
  }
}
