import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PanelApiTokensConfig } from '@panel/api-tokens';

/** Where `panel-api install` puts the panel initializer, in the languages it may be written in. */
export const INITIALIZERS = ['app/panel/initializer.ts', 'app/panel/initializer.mts', 'app/panel/initializer.js', 'app/panel/initializer.mjs'];

/**
 * The Edition B configuration the app's initializer exports (`export const panelApi =
 * configurePanelApi(…)`, as `panel-api install` writes it); undefined when the app has no
 * initializer or it exports none (Edition A). A TypeScript loader must be in place.
 */
export async function appTokensConfig(appRoot: string): Promise<PanelApiTokensConfig | undefined> {
  const file = INITIALIZERS.map((path) => join(appRoot, path)).find((path) => existsSync(path));
  if (file === undefined) return undefined;
  const exported: Record<string, unknown> = await import(pathToFileURL(file).href);
  return Object.values(exported).find((value): value is PanelApiTokensConfig => typeof value === 'object' && value !== null && (value as { edition?: unknown }).edition === 'B');
}
