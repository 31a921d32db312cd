import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { CONTROLLERS_DIR } from '@panel/api';

/** The config file `panel-api` reads from the app root, when there is one. */
export const CONFIG_FILE = 'panel.config.json';

/** The default resources folder, relative to the app root. */
export const RESOURCES_DIR = posix.join('app', 'panel', 'resources');

/** The default folder of generated controllers (one sub-folder per version), relative to the app root: the runtime's, where `mountPanelApi` looks. */
export { CONTROLLERS_DIR };

/** The language generated files are written in. */
export type Language = 'ts' | 'js';

/** `panel.config.json` as an app writes it; every key is optional. */
export interface AppConfigFile {
  /** The resources folder, relative to the app root. Default `app/panel/resources`. */
  resourcesDir?: string;
  /** The controllers folder (one sub-folder per version), relative to the app root. Default `app/controllers/panel/api/resources`. */
  controllersDir?: string;
  /** The language of new controllers: `ts` or `js`. Default: `js` when every resource file is JavaScript, else `ts`. */
  language?: Language;
}

/** Where an app's files are, after the config file and the flags are applied. */
export interface AppConfig {
  /** The app root, absolute. */
  readonly appRoot: string;
  /** The resources folder relative to the app root, with `/` separators. */
  readonly resourcesDir: string;
  /** The controllers folder relative to the app root, with `/` separators. */
  readonly controllersDir: string;
  /** The language asked for by a flag or the config file; undefined lets the resources decide. */
  readonly language: Language | undefined;
}

/** A mistake in `panel.config.json` or in a folder flag; the message names the key, the value and the fix. */
export class AppConfigError extends Error {
  override readonly name = 'AppConfigError';
}

const KEYS: readonly (keyof AppConfigFile)[] = ['resourcesDir', 'controllersDir', 'language'];

/** A folder option as a `/`-separated path relative to the app root; it may not leave the app. */
function appFolder(appRoot: string, option: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppConfigError(`${option} must be a folder path relative to the app root, instead got ${JSON.stringify(value)}. Fix: set it to a path such as ${JSON.stringify(option.endsWith('controllersDir') ? CONTROLLERS_DIR : 'src/panel/resources')}.`);
  }
  const inside = relative(appRoot, resolve(appRoot, value));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new AppConfigError(`${option} must be a folder inside the app root ${appRoot}, instead got ${JSON.stringify(value)}.`);
  }
  return inside.split(sep).join('/');
}

function readConfigFile(appRoot: string): AppConfigFile {
  const path = join(appRoot, CONFIG_FILE);
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new AppConfigError(`${CONFIG_FILE} is not valid JSON: ${(error as Error).message}. Fix: correct it, or delete it to use the defaults.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppConfigError(`${CONFIG_FILE} must hold a JSON object such as { "resourcesDir": "app/panel/resources" }.`);
  }
  for (const key of Object.keys(parsed)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new AppConfigError(`${CONFIG_FILE}: unknown key "${key}". Fix: use one of ${KEYS.join(', ')}.`);
    }
  }
  return parsed as AppConfigFile;
}

/**
 * Reads `<appRoot>/panel.config.json` (when it exists) and applies the flags over it: a flag
 * wins over the file, the file over the defaults. Throws `AppConfigError` naming the mistake.
 *
 * @example
 * loadAppConfig({ root: '.', resources: 'src/resources' });
 * // { appRoot: '/abs/app', resourcesDir: 'src/resources', controllersDir: 'app/controllers/panel/api/resources', language: undefined }
 */
export function loadAppConfig(flags: { root: string; resources?: string | undefined; language?: Language | undefined }): AppConfig {
  const appRoot = resolve(flags.root);
  const file = readConfigFile(appRoot);
  const language = flags.language ?? file.language;
  if (language !== undefined && language !== 'ts' && language !== 'js') {
    throw new AppConfigError(`${CONFIG_FILE}: language must be "ts" or "js", instead got ${JSON.stringify(language)}.`);
  }
  return Object.freeze({
    appRoot,
    resourcesDir: flags.resources !== undefined ? appFolder(appRoot, '--resources', flags.resources) : file.resourcesDir !== undefined ? appFolder(appRoot, `${CONFIG_FILE}: resourcesDir`, file.resourcesDir) : RESOURCES_DIR,
    controllersDir: file.controllersDir !== undefined ? appFolder(appRoot, `${CONFIG_FILE}: controllersDir`, file.controllersDir) : CONTROLLERS_DIR,
    language,
  });
}
