import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseSetupProblem } from '@panel/core';
import { testDatabaseKinds, testDatabaseUrl } from '@panel/test-support';
import { runDemoUntilExit } from './demo-server-process.js';

/**
 * Issue 31, finding 13, in the demo: "A `DATABASE_URL` naming a missing database gives a 30-line
 * `pg` stack (`3D000`), no fix." The demo's entry points are started as `npm start` starts them (a
 * child process) with a `DATABASE_URL` naming a database that does not exist on the test's
 * PostgreSQL server, and must end with the one line of `databaseSetupProblem` and exit code 1.
 */
const describePostgres = testDatabaseKinds().includes('postgres') ? describe : describe.skip;

/** The test server's URL with another database name: one that no test creates. */
function missingDatabaseUrl(): { url: string; name: string } {
  const name = `panel_missing_${randomBytes(6).toString('hex')}`;
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return { url: url.href, name };
}

/** The line `databaseSetupProblem` gives for PostgreSQL's 3D000 on `name`, as `pg` reports it. */
function missingDatabaseLine(name: string): string {
  const driverError = Object.assign(new Error(`database "${name}" does not exist`), { code: '3D000' });
  return databaseSetupProblem(driverError)!;
}

describePostgres('the demo with a DATABASE_URL naming a database that does not exist [postgres]', { timeout: 120_000 }, () => {
  for (const script of ['src/server.ts', 'src/server-cluster.ts']) {
    it(`${script} prints one line on standard error, "Database … does not exist … Fix: createdb <name>", no stack, and exits 1`, async () => {
      const { url, name } = missingDatabaseUrl();
      const ended = await runDemoUntilExit({ DATABASE_URL: url }, script);
      expect(ended.stderr).toBe(`${missingDatabaseLine(name)}\n`);
      expect(ended.stderr).toContain(`Fix: createdb ${name}`);
      expect(ended.stderr).not.toMatch(/^\s+at /m);
      expect(ended.stdout).toBe('');
      expect(ended.code).toBe(1);
    });
  }
});

// The rule: "Misconfiguration fails fast at boot with a message that names the option and the
// fix." A DATABASE_URL the driver cannot read ended in Node's `TypeError: Invalid URL` and its
// stack at the first query; one that is not a PostgreSQL URL printed its password in a stack.
describe('the demo with a DATABASE_URL that cannot be used as written [a child process]', { timeout: 120_000 }, () => {
  for (const url of ['postgres://shop:s3cr3t@127.0.0.1:99999/shop', 'postgres//shop:s3cr3t@127.0.0.1:5432/shop']) {
    it(`${url.replace('s3cr3t', '…')}: one line naming DATABASE_URL and the fix, without the password, no stack, exit 1`, async () => {
      const ended = await runDemoUntilExit({ DATABASE_URL: url }, 'src/server.ts');
      expect(ended.stderr).toMatch(/^Database url .*Fix: .*DATABASE_URL.*\n$/);
      expect(ended.stderr).not.toContain('s3cr3t');
      expect(ended.stderr).not.toMatch(/^\s+at /m);
      expect(ended.stdout).toBe('');
      expect(ended.code).toBe(1);
    });
  }
});

