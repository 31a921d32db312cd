/** The demo's API keys: `demo-admin-key` is user 1, `demo-reader-key` user 2; both can be overridden by env. */
export function demoKeys(env: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, number> {
  return new Map([
    [env.PANEL_DEMO_ADMIN_KEY || 'demo-admin-key', 1],
    [env.PANEL_DEMO_READER_KEY || 'demo-reader-key', 2],
  ]);
}
