import { execFile, spawn, type ChildProcess } from 'node:child_process';

/** What a finished command printed and returned. */
export interface CommandRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment for commands run in an app outside the repository: this process's, less what
 * `npm test` and vitest add (`npm_*` settings would change what a nested npm does).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_OPTIONS$|VITEST|TEST$|NODE_ENV$)/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * Runs a command to its end.
 *
 * @example
 * const { exitCode, stdout } = await run('npx', ['panel-api', 'generate'], { cwd: appRoot });
 */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd: options.cwd, env: options.env ?? cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Standard error without npm's own warnings about the machine's npm config. */
export function withoutNpmWarnings(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n');
}

/** A server started by `startServer`. */
export interface RunningServer {
  /** The address it printed, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Everything it printed so far. */
  readonly output: () => string;
  /** Sends `signal` (default SIGTERM; SIGINT is what Ctrl-C sends) to its whole process group and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a server process and resolves once it prints an `http://…` address (the guide's
 * servers print `Shop API on http://127.0.0.1:<port>`); rejects with its output when it exits
 * first or prints nothing within `timeoutMs`.
 */
export function startServer(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunningServer> {
  const child: ChildProcess = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      // The whole process group, as a terminal's Ctrl-C: a runner such as tsx starts the server as a child of its own.
      process.kill(-child.pid!, signal);
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} ${args.join(' ')} printed no address within ${options.timeoutMs ?? 90_000} ms:\n${output}`));
    }, options.timeoutMs ?? 90_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /(http:\/\/[\w.:[\]-]+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, output: () => output, stop });
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before printing an address:\n${output}`));
    });
  });
}

/** A long-running command's standard output and error, line by line, and a way to wait for a line. */
export interface FollowedLines {
  readonly lines: string[];
  /** The lines printed from `from` on, once one matches `pattern` (an error naming them after `timeoutMs`). */
  until(pattern: RegExp, from: number): Promise<string[]>;
}

/** Follows `child`'s output lines as they arrive (both streams, in order of arrival). */
export function followLines(child: ChildProcess, timeoutMs: number): FollowedLines {
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  const take = (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  return {
    lines,
    async until(pattern, from) {
      const deadline = Date.now() + timeoutMs;
      while (!lines.slice(from).some((line) => pattern.test(line))) {
        if (Date.now() > deadline) throw new Error(`no line matching ${pattern} after ${JSON.stringify(lines.slice(from))}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
      return lines.slice(from);
    },
  };
}
