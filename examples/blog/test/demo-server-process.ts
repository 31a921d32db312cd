import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The demo's folder (holding `src/server.ts`). */
const DEMO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The demo server running in a child process, as `npm start` runs it. */
export interface DemoServerProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly child: ChildProcess;
  /** Everything the process wrote, standard output and error. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** Kills the process if it still runs (the cleanup of a failed test). */
  kill(): void;
}

/**
 * Starts `src/server.ts` (or `script`) in a child process (Node with tsx, the `@panel/source`
 * condition) on a free port with `env` added, and resolves once it prints its address.
 */
export async function startDemoServer(env: Record<string, string>, startupMillis = 90_000, script = 'src/server.ts'): Promise<DemoServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@panel/source', script], {
    cwd: DEMO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo server did not start within ${startupMillis} ms:\n${output}`)), startupMillis);
    const look = () => {
      const found = /Panel API demo on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the demo server exited (${code}) before it started:\n${output}`));
    });
  });
  return {
    base,
    child,
    output: () => output,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
