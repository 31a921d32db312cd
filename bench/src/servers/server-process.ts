import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { ServerKind } from './bench-server.js';
import type { CensusRequest, ChildMessage, ParentMessage } from './server-messages.js';
import type { StatementCensus } from '../census/round-trips.js';

/** What a server child is started with. */
export interface ServerProcessOptions {
  /** The compiled `serve.js` (see `compileServers`). */
  readonly entry: string;
  readonly kind: ServerKind;
  readonly url: string;
  readonly schema: string;
  readonly port: number;
  /** More than one: a `node:cluster` primary with that many workers. */
  readonly workers: number;
  /** The API's count strategy as JSON (`BENCH_COUNT`); default the exact count. */
  readonly count?: string;
  /** Read replicas for the API (`BENCH_REPLICAS`, comma-separated URLs). */
  readonly replicas?: string;
}

/** The kernel's figure for a process, in bytes (VmHWM: peak resident set; VmRSS: current). */
function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * A server running in its own child process (so that its memory is its own): plain `node`
 * on the compiled sources, ready once it listens, asked for statement censuses over IPC, and
 * stopped.
 */
export class ServerProcess {
  readonly kind: ServerKind;
  readonly port: number;
  readonly #child: ChildProcess;
  #pids: number[] = [];
  #nextId = 1;
  readonly #pending = new Map<number, (result: StatementCensus & { status: number }) => void>();

  private constructor(options: ServerProcessOptions, child: ChildProcess) {
    this.kind = options.kind;
    this.port = options.port;
    this.#child = child;
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'census') {
        this.#pending.get(message.id)?.(message.result);
        this.#pending.delete(message.id);
      }
    });
  }

  /** Starts the child and resolves once every worker listens. */
  static async start(options: ServerProcessOptions): Promise<ServerProcess> {
    const child = fork(options.entry, [options.kind], {
      execArgv: [],
      env: {
        ...process.env,
        BENCH_DATABASE_URL: options.url,
        BENCH_SCHEMA: options.schema,
        BENCH_PORT: String(options.port),
        BENCH_WORKERS: String(options.workers),
        ...(options.count === undefined ? {} : { BENCH_COUNT: options.count }),
        ...(options.replicas === undefined ? {} : { BENCH_REPLICAS: options.replicas }),
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const server = new ServerProcess(options, child);
    server.#pids = await new Promise<number[]>((resolve, reject) => {
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'ready') resolve(message.pids);
      });
      child.once('exit', (code) => reject(new Error(`The ${options.kind} server exited with code ${code} before listening.`)));
    });
    return server;
  }

  /** The base URL the server listens on. */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Runs one request in the server under its statement listener. */
  census(request: CensusRequest): Promise<StatementCensus & { status: number }> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#child.send({ type: 'census', id, request } satisfies ParentMessage);
    });
  }

  /** Starts a new peak-RSS window (Linux `clear_refs` 5) in every serving process. */
  resetPeakRss(): void {
    for (const pid of this.#pids) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  }

  /** The highest peak resident set of the serving processes since the last reset, and their sum (cluster mode). */
  peakRss(): { max: number; total: number } {
    const peaks = this.#pids.map((pid) => procStatus(pid, 'VmHWM'));
    return { max: Math.max(...peaks), total: peaks.reduce((a, b) => a + b, 0) };
  }

  /** Asks the server to close and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'stop' } satisfies ParentMessage);
    const timeout = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timeout);
  }
}
