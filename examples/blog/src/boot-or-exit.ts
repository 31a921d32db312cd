import { databaseSetupProblem } from '@panel/core';

/**
 * Runs a demo entry point's boot. When it fails with a database setup mistake (a database that
 * does not exist, a server that refuses connections, a wrong password: `databaseSetupProblem`),
 * prints the one line naming the fix on standard error and exits 1, without the driver's stack;
 * any other error is rethrown, so that a bug keeps its stack.
 *
 * @example
 * const { app } = await bootOrExit(() => buildDemoApp({ database: { url: process.env.DATABASE_URL } }));
 * // DATABASE_URL=postgres://…/shop with no database "shop": one line, "… Fix: createdb shop …", exit code 1
 */
export async function bootOrExit<T>(boot: () => Promise<T>): Promise<T> {
  try {
    return await boot();
  } catch (error) {
    const problem = databaseSetupProblem(error);
    if (problem === undefined) throw error;
    console.error(problem);
    process.exit(1);
  }
}
