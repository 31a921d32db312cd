import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskStorage, type PanelDatabase, type SessionOptionsInput } from '@panel/core';
import { ApiTokenService, configurePanelApi } from '@panel/api-tokens';
import { panelScreens } from '@panel/panel-ui';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';

/** The pepper of the test apps (32+ characters, as the service requires). */
export const TEST_PEPPER = 'test-pepper-0123456789abcdef0123456789abcdef';

/** How the test gate answers: what the demo configures (admins only), or a gate that throws. */
export const gateMode = { current: 'admins' as 'admins' | 'throws' };

/** The demo with Edition B's screens: the panel shell at the root, the token and settings screens. */
export interface TokenScreensApp extends DemoApp {
  readonly tokens: ApiTokenService;
  close(): Promise<void>;
}

/**
 * Builds the demo (its sign-in pages and token tables) with `panelScreens` mounted as Edition B
 * mounts it, but with a gate of its own: it lets admins manage tokens (Ada), not Rita, and
 * `gateMode.current = 'throws'` makes it throw. (`buildDemoApp({ edition: 'B' })` is the real
 * demo; the browser suite drives that one.)
 */
export async function buildTokenScreensApp(database: PanelDatabase, session?: SessionOptionsInput): Promise<TokenScreensApp> {
  const storageRoot = await mkdtemp(join(tmpdir(), 'panel-screens-storage-'));
  const demo = await buildDemoApp({ database, panelHome: false, storage: diskStorage({ root: storageRoot }), ...(session ? { session } : {}) });
  const panelApi = configurePanelApi({
    pepper: TEST_PEPPER,
    manageTokensIf: (user) => {
      if (gateMode.current === 'throws') throw new Error('the directory is down');
      return (user as { admin?: boolean } | null)?.admin === true;
    },
  });
  const routeKeys = [...demo.panel.resources.values()].map((r) => r.naming.routeKey);
  const tokens = new ApiTokenService({ database, pepper: TEST_PEPPER, resources: routeKeys });
  await demo.app.register(panelScreens, { panel: demo.panel, tokens, panelApi, home: true });
  await demo.app.ready();
  return {
    ...demo,
    tokens,
    async close() {
      await demo.app.close();
      await rm(storageRoot, { recursive: true, force: true });
    },
  };
}
