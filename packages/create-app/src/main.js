// @ts-check
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { appFiles } from './app-files.js';
import { USAGE, UsageError, createOptions } from './options.js';
import { panelSpecifiers } from './panel-packages.js';

const VERSION = /** @type {{ version: string }} */ (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))).version;
const WINDOWS = process.platform === 'win32';

/**
 * Runs a command in the app's folder, its output shown; false when it fails.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {string} cwd
 */
function step(command, args, cwd, shown = `${command} ${args.join(' ')}`) {
  console.log(`\n$ ${shown}`);
  const started = performance.now();
  const ok = spawnSync(command, args, { cwd, stdio: 'inherit', shell: WINDOWS }).status === 0;
  console.log(`${ok ? '✓' : '✗'} ${shown}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return ok;
}

/**
 * `npm create @panel/app`: writes the app, installs it and generates its controllers. Returns
 * the exit code.
 *
 * @param {readonly string[]} argv
 * @returns {Promise<number>}
 */
export async function main(argv) {
  let options;
  try {
    options = await createOptions(argv, { cwd: process.cwd(), interactive: Boolean(process.stdin.isTTY) });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 1;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const { directory } = options;
  if (existsSync(directory) && readdirSync(directory).length > 0) {
    console.error(`${directory} exists and is not empty. Fix: choose another folder name, or empty that folder.`);
    return 1;
  }
  let panel;
  try {
    panel = panelSpecifiers(VERSION, options.panelPackages);
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    return 1;
  }
  const secrets = { apiKey: randomBytes(24).toString('base64url'), pepper: randomBytes(32).toString('hex'), sessionSecret: randomBytes(32).toString('hex'), adminPassword: randomBytes(12).toString('base64url') };
  const files = appFiles(options, panel, secrets);
  for (const [path, text] of files) {
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), text);
  }
  const shown = relative(process.cwd(), directory) || '.';
  console.log(`✓ Wrote ${files.size} files to ${shown} (Edition ${options.edition.toUpperCase()})`);
  const next = [`cd ${shown}`];
  if (options.install) {
    // No audit and funding requests: network round trips a new app's first install does without (npm audit runs them later).
    if (!step('npm', ['install', '--no-audit', '--no-fund'], directory)) {
      console.error(`npm install failed in ${shown}. Fix: see npm's message above, then run npm install and npm run panel-api -- generate there.`);
      return 1;
    }
    // The installed bin with this Node, not through npm run: one process instead of three.
    if (!step(process.execPath, [join('node_modules', '@panel', 'api-cli', 'bin', 'panel-api.js'), 'generate'], directory, 'npx panel-api generate')) return 1;
  } else {
    next.push('npm install', 'npm run panel-api -- generate');
  }
  next.push('npm run dev');
  console.log(`\nDone. Next:\n${next.map((line) => `  ${line}`).join('\n')}`);
  const env = join(shown, '.env');
  console.log(
    `${options.edition === 'b' ? 'The first boot prints the first API token, once.' : `Your API key is in ${env} (API_KEYS).`} The panel: /panel/login, as admin@example.com with the password in ${env} (PANEL_ADMIN_PASSWORD).`,
  );
  return 0;
}
