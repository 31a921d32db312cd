// @ts-check
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The `@panel/*` packages an app installs. */
export const PANEL_PACKAGES = ['@panel/core', '@panel/api', '@panel/api-tokens', '@panel/panel-ui', '@panel/api-cli'];

/**
 * The dependency specifier of each `@panel/*` package: the registry's caret range of this
 * scaffolder's version, or, with `--panel-packages <dir>`, the tarball there (named in the
 * `packs.json` that `npm run pack:all` writes, else found by its file name).
 *
 * @param {string} version this scaffolder's version, the packages' own
 * @param {string | undefined} folder
 * @returns {Record<string, string>}
 */
export function panelSpecifiers(version, folder) {
  /** @type {Record<string, string>} */
  const specifiers = {};
  if (folder === undefined) {
    for (const name of PANEL_PACKAGES) specifiers[name] = `^${version}`;
    return specifiers;
  }
  if (!existsSync(folder)) throw new Error(`--panel-packages ${folder}: no such folder. Fix: run npm run pack:all in a clone of the Panel API repository, and pass its packs/ folder.`);
  const listed = existsSync(join(folder, 'packs.json')) ? /** @type {Record<string, string>} */ (JSON.parse(readFileSync(join(folder, 'packs.json'), 'utf8'))) : {};
  const files = readdirSync(folder);
  for (const name of PANEL_PACKAGES) {
    const stem = name.replace(/^@/, '').replace('/', '-');
    const file = listed[name] ?? files.find((candidate) => new RegExp(`^${stem}-\\d+\\.\\d+\\.\\d+.*\\.tgz$`).test(candidate));
    if (!file) throw new Error(`--panel-packages ${folder}: no tarball of ${name} (${stem}-<version>.tgz). Fix: run npm run pack:all, which writes every package's.`);
    specifiers[name] = `file:${join(folder, file)}`;
  }
  return specifiers;
}
