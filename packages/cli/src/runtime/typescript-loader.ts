let registered = false;

/**
 * Makes the app's TypeScript files importable, for the commands that run the app's code
 * (`routes`). The installed CLI runs as JavaScript on plain Node, which cannot import `.ts`, so
 * it registers tsx's loader once. When this module is itself TypeScript, a loader (tsx, or the
 * test runner's) is already in place and nothing is registered.
 */
export async function ensureTypeScriptLoader(): Promise<void> {
  if (registered || import.meta.url.endsWith('.ts')) return;
  const { register } = await import('tsx/esm/api');
  register();
  registered = true;
}
