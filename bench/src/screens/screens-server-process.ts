import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CountStrategyInput } from '@panel/core';

const ENTRY = fileURLToPath(new URL('./screens-server.ts', import.meta.url));

/** The demo with its screens on a bench schema, in a child process (the load generator does not share its event loop). */
export class ScreensServer {
  readonly origin: string;
  /** Ada's session cookie (`panel_session=…`), made by the server's own panel. */
  readonly cookie: string;
  readonly #child: ChildProcess;

  private constructor(origin: string, cookie: string, child: ChildProcess) {
    this.origin = origin;
    this.cookie = cookie;
    this.#child = child;
  }

  /** Starts the child (the TypeScript sources through tsx) and resolves once it listens, with Ada's cookie. */
  static async start(options: { url: string; schema: string; port: number; count: CountStrategyInput }): Promise<ScreensServer> {
    const child = fork(ENTRY, [], {
      execArgv: ['--import', 'tsx', '--conditions=@panel/source'],
      env: { ...process.env, SCREENS_DATABASE_URL: options.url, SCREENS_SCHEMA: options.schema, SCREENS_PORT: String(options.port), SCREENS_COUNT: JSON.stringify(options.count), NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const cookie = await new Promise<string>((resolve, reject) => {
      child.on('message', (message: { type?: string; cookie?: string }) => {
        if (message.type === 'ready') resolve(message.cookie!);
      });
      child.once('exit', (code) => reject(new Error(`The screens' bench server exited with code ${code} before listening.`)));
    });
    return new ScreensServer(`http://127.0.0.1:${options.port}`, cookie, child);
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'stop' });
    await exited;
  }
}
