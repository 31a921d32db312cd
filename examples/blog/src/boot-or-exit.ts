import { databaseSetupProblem, isPanelError } from '@panel/core';

/**
 * Runs a demo entry point's boot. When it fails with a database setup mistake (a database that
 * does not exist, a server that refuses connections, a wrong password: `databaseSetupProblem`)
 * or a configuration mistake (`PanelConfigError`, whose message names the option and the fix),
 * prints that one line on standard error and exits 1, without a stack; any other error is
 * rethrown, so that a bug keeps its stack.
 *
 * @example
 * const { app } = await bootOrExit(() => buildDemoApp({ database: { url: process.env.DATABASE_URL } }));
 * // DATABASE_URL=postgres://…/shop with no database "shop": one line, "… Fix: createdb shop …", exit code 1
 */
export async function bootOrExit<T>(boot: () => Promise<T>): Promise<T> {
  try {
    return await boot();
  } catch (error) {
    const problem = databaseSetupProblem(error) ?? (isPanelError(error, 'PANEL_ERR_CONFIG') ? error.message : undefined);
    if (problem === undefined) throw error;
    console.error(problem);
    process.exit(1);
  }
}
