import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CountStrategyInput } from '@panel/core';

const ENTRY = fileURLToPath(new URL('./large-server.ts', import.meta.url));

/** A demo server on the large schema, in a child process of its own (so the load generator does not share its event loop). */
export class LargeServer {
  readonly port: number;
  readonly #child: ChildProcess;

  private constructor(port: number, child: ChildProcess) {
    this.port = port;
    this.#child = child;
  }

  /** Starts the child (run from the TypeScript sources through tsx) and resolves once it listens. */
  static async start(options: { url: string; schema: string; port: number; count: CountStrategyInput }): Promise<LargeServer> {
    const child = fork(ENTRY, [], {
      execArgv: ['--import', 'tsx', '--conditions=@panel/source'],
      env: { ...process.env, LARGE_DATABASE_URL: options.url, LARGE_SCHEMA: options.schema, LARGE_PORT: String(options.port), LARGE_COUNT: JSON.stringify(options.count), NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.on('message', (message: { type?: string }) => {
        if (message.type === 'ready') resolve();
      });
      child.once('exit', (code) => reject(new Error(`The large-schema server exited with code ${code} before listening.`)));
    });
    return new LargeServer(options.port, child);
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'stop' });
    await exited;
  }
}
