// `npm test`'s pretest: sets up what the suite needs on this machine, only when something is
// missing and can be installed, and says what it does. The README promises two commands on a
// fresh clone, `npm install && npm test`; this makes the second one true.
//
// - PostgreSQL (every database test runs on PGlite and on the server at DATABASE_URL): when it
//   does not answer and the machine has a local cluster, scripts/ensure-postgres.sh starts it.
//   Skipped with PANEL_TEST_DATABASES=pglite.
// - Chromium (the browser suite, examples/blog/test/*.browser.test.ts): when it is missing and
//   apt-get can install it (root, or sudo without a password), scripts/ensure-chromium.sh
//   installs Debian's `chromium` package. Skipped with PANEL_BROWSER_TESTS=off.
//
// When a piece is missing and cannot be set up here, it prints the fix and leaves the suite to
// report the tests that need it (never a silent skip).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line) => console.log(`pretest: ${line}`);

/** Whether a TCP connection to the URL's host and port opens within two seconds. */
function answers(url) {
  let host = '127.0.0.1';
  let port = 5432;
  try {
    const parsed = new URL(url);
    host = parsed.hostname || host;
    port = Number(parsed.port || port);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** Whether a command exits 0 (quietly). */
function succeeds(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** Whether this process may run apt-get: root, or sudo that asks no password. */
function canInstallPackages() {
  if (process.platform !== 'linux' || !succeeds('sh', ['-c', 'command -v apt-get'])) return false;
  return process.getuid?.() === 0 || succeeds('sudo', ['-n', 'true']);
}

function runScript(script) {
  return spawnSync('bash', [script], { cwd: root, stdio: 'inherit' }).status === 0;
}

async function postgres() {
  if (process.env.PANEL_TEST_DATABASES === 'pglite') return;
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  if (await answers(url)) return;
  if (!existsSync('/etc/postgresql') || !succeeds('sh', ['-c', 'command -v pg_ctlcluster'])) {
    say(`PostgreSQL does not answer at ${url}, and this machine has no local cluster to start. Fix: start a server (or set DATABASE_URL), or run PANEL_TEST_DATABASES=pglite npm test for PGlite alone.`);
    return;
  }
  say(`PostgreSQL does not answer at ${url}: starting the machine's cluster (scripts/ensure-postgres.sh).`);
  if (runScript('scripts/ensure-postgres.sh')) say('PostgreSQL answers.');
}

function chromium() {
  if (process.env.PANEL_BROWSER_TESTS === 'off') return;
  const browser = process.env.PANEL_CHROMIUM || '/usr/bin/chromium';
  if (existsSync(browser)) return;
  if (process.env.PANEL_CHROMIUM || !canInstallPackages()) {
    say(`Chromium is missing at ${browser} and cannot be installed from here. Fix: sudo bash scripts/ensure-chromium.sh (Debian's chromium package), set PANEL_CHROMIUM to a Chromium binary, or PANEL_BROWSER_TESTS=off to skip the browser suite.`);
    return;
  }
  say(`Chromium is missing at ${browser}: installing Debian's chromium package for the browser suite (scripts/ensure-chromium.sh; about a minute, once).`);
  if (runScript('scripts/ensure-chromium.sh')) say(`Chromium installed at ${browser}.`);
}

await postgres();
chromium();
