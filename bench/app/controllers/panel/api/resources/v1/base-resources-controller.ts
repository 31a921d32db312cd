import { AuthenticationError, ResourcesController } from '@panel/api';
import type { Panel } from '@panel/core';
import { apiKeyOf, keyDigest, loadBenchKeys, type BenchUser } from '../../../../../../src/auth/bench-keys.js';

const keysByPanel = new WeakMap<Panel, Promise<ReadonlyMap<string, BenchUser>>>();

function benchKeys(panel: Panel): Promise<ReadonlyMap<string, BenchUser>> {
  let keys = keysByPanel.get(panel);
  if (!keys) keysByPanel.set(panel, (keys = loadBenchKeys(panel.database.db)));
  return keys;
}

/**
 * The bench's base controller: the demo's resources and policies, authenticated by an API key
 * looked up by its digest among the keys read once at start (the baseline does the same).
 */
export class BaseResourcesController extends ResourcesController {
  protected user: BenchUser | undefined;

  override async setupAuthentication(): Promise<void> {
    const key = apiKeyOf(this.request.headers.authorization);
    this.user = key === undefined ? undefined : (await benchKeys(this.panel)).get(keyDigest(key));
    if (!this.user) throw new AuthenticationError();
  }

  override async currentUser(): Promise<BenchUser | null> {
    return this.user ?? null;
  }
}
