// The one line `init` prints when it cannot open a database names the URL without its secrets:
// the userinfo and the query-string parameters that carry a password or a key.
import { afterAll, describe, expect, it } from 'vitest';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const apps = tempApps();
afterAll(() => apps.removeAll());

describe('panel-api init on a database it cannot open', () => {
  // packages/cli/src/messages.ts, initCannotOpen: "The URL's password (and user) never printed."
  it.each([
    ['postgres://postgres@127.0.0.1:1/x?password=s3cr3t', 'postgres://…@127.0.0.1:1/x?password=…'],
    ['postgres://127.0.0.1:1/x?user=me&password=s3cr3t&sslmode=disable', 'postgres://127.0.0.1:1/x?user=me&password=…&sslmode=disable'],
    ['postgres://127.0.0.1:1/x?sslpassword=s3cr3t&sslkey=/keys/client.key&PASSWORD=s3cr3t#x', 'postgres://127.0.0.1:1/x?sslpassword=…&sslkey=…&PASSWORD=…#x'],
    ['postgres://me:s3cr3t@127.0.0.1:1/x', 'postgres://…@127.0.0.1:1/x'],
    // A password holding a slash (unencoded) is hidden too.
    ['postgres://me:s3/cr3t@127.0.0.1:1/x', 'postgres://…@127.0.0.1:1/x'],
  ])('%s is printed as %s', async (url, shown) => {
    const root = await apps.empty();
    const run = await runPanelApi(['init', '--check', '--from-database', url, '--root', root]);
    expect(run.exitCode).toBe(2);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]!.startsWith(`Cannot open the database ${shown}: `)).toBe(true);
    expect(run.err[0]).not.toContain('s3cr3t');
    expect(run.err[0]).not.toContain('cr3t');
  });
});
