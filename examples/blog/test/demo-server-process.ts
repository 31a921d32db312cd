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

/** `script` in a child process, as `npm start` runs `src/server.ts`: Node with tsx and the `@panel/source` condition, on a free port, `env` added. */
function spawnDemo(env: Record<string, string>, script: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', '--conditions=@panel/source', script], {
    cwd: DEMO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts `src/server.ts` (or `script`) in a child process (Node with tsx, the `@panel/source`
 * condition) on a free port with `env` added, and resolves once it prints its address.
 */
export async function startDemoServer(env: Record<string, string>, startupMillis = 90_000, script = 'src/server.ts'): Promise<DemoServerProcess> {
  const child = spawnDemo(env, script);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo server did not start within ${startupMillis} ms:\n${output}`)), startupMillis);
    const look = () => {
      const found = /Panel API demo(?:, Edition B,)? on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
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

/** A demo process that ended: its exit code (or the signal's name) and what it wrote on each stream. */
export interface EndedDemoProcess {
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `src/server.ts` (or `script`) as `startDemoServer` does and resolves when the process
 * ends, for the starts that must fail; a process still running after `limitMillis` is killed and
 * the promise rejects with what it wrote.
 */
export async function runDemoUntilExit(env: Record<string, string>, script = 'src/server.ts', limitMillis = 90_000): Promise<EndedDemoProcess> {
  const child = spawnDemo(env, script);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} still ran after ${limitMillis} ms:\n${stdout}${stderr}`));
    }, limitMillis);
    // 'close', not 'exit': the streams are read to their end.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? 'unknown', stdout, stderr });
    });
  });
}
