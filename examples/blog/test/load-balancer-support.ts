import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { acceptsConnections, ensureTool, freePort } from '@panel/test-support';

const run = promisify(execFile);

/** The HAProxy binary: `scripts/ensure-haproxy.sh` finds it, or installs Debian's package when missing. */
export function ensureHaproxy(): Promise<string> {
  return ensureTool('ensure-haproxy.sh', 'The load-balancer suite');
}

/** HAProxy running in front of the apps: round robin, no affinity, health checks on the readiness route. */
export interface Haproxy {
  readonly base: string;
  readonly child: ChildProcess;
  output(): string;
  close(): Promise<void>;
}

/**
 * The configuration the suite runs (examples/deploy/haproxy.cfg is the same balancing with
 * fixed addresses): round robin without cookies or stickiness; a server is checked every
 * 200 ms on `/api/health/ready`; a request whose connection to a dead server is refused is
 * sent to the other one (`retries` + `redispatch`), so only requests already in flight on a
 * process that dies fail (a GET whose answer never came is tried again). Each answer names its
 * server in `X-Panel-Server`; the suite's `X-Suite-Server` header sends a request to a named
 * server, where a step must go through "the other" process.
 */
export function haproxyConfig(port: number, servers: readonly { name: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 512',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend panel',
    `  bind 127.0.0.1:${port}`,
    '  default_backend apps',
    'backend apps',
    '  balance roundrobin',
    '  option httpchk GET /api/health/ready',
    '  http-check expect status 200',
    '  timeout check 2s',
    '  default-server inter 200ms fall 3 rise 2',
    '  http-response set-header X-Panel-Server %s',
    // Only the suite's own steering header pins a request (to say "through the other process"); nothing else does.
    ...servers.map((server) => `  use-server ${server.name} if { req.hdr(x-suite-server) -m str ${server.name} }`),
    ...servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`),
    '',
  ].join('\n');
}

/** Starts HAProxy in the foreground (`-db`) on a free port, after checking its configuration (`-c`). */
export async function startHaproxy(binary: string, servers: readonly { name: string; port: number }[]): Promise<Haproxy> {
  const folder = await mkdtemp(join(tmpdir(), 'panel-haproxy-'));
  const port = await freePort();
  const file = join(folder, 'haproxy.cfg');
  await writeFile(file, haproxyConfig(port, servers));
  await run(binary, ['-c', '-q', '-f', file]);
  const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = Date.now();
  while (!(await acceptsConnections(port))) {
    if (child.exitCode !== null || Date.now() - started > 10_000) throw new Error(`HAProxy did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A browser's cookies, kept across requests (what a panel session sends without doing anything). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Stores the `Set-Cookie` headers of an answer (a `Max-Age=0` one deletes). */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      if (/max-age=0\b/i.test(line) || pair!.slice(at + 1) === '') this.#cookies.delete(name);
      else this.#cookies.set(name, pair!.slice(at + 1));
    }
  }

  /** The `Cookie` header to send. */
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.#cookies.has(name);
  }
}

/**
 * Sends requests in `concurrency` loops until `stop()`; each outcome is kept with its start and
 * end times, so a failure can be placed against the moment a process was killed.
 */
export function loadLoop(send: () => Promise<number>, concurrency: number) {
  const outcomes: { status: number; startedAt: number; endedAt: number; error?: string }[] = [];
  let running = true;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      const startedAt = performance.now();
      try {
        outcomes.push({ status: await send(), startedAt, endedAt: performance.now() });
      } catch (error) {
        outcomes.push({ status: 0, startedAt, endedAt: performance.now(), error: (error as Error).message });
      }
    }
  });
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}
