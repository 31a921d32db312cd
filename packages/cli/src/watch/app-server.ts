import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** How long a server has to close after SIGTERM (its connections, its database) before it is killed. */
export const CLOSE_MILLIS = 5_000;

/** The server entries looked for, in order, when none is named. */
const ENTRIES = ['src/server.ts', 'src/server.mts', 'src/server.js', 'src/server.mjs'];

/**
 * The command that starts the app's server: the one given after `--`, else Node on the entry
 * (`--server`, else the first of `src/server.{ts,mts,js,mjs}`), with tsx's loader for TypeScript;
 * a string saying what is missing when there is none.
 */
export function serverCommand(appRoot: string, entry: string | undefined, command: readonly string[]): readonly string[] | string {
  if (command.length > 0) return command;
  const file = entry ?? ENTRIES.find((candidate) => existsSync(join(appRoot, candidate)));
  if (file === undefined || !existsSync(join(appRoot, file))) {
    return `${file === undefined ? `No server entry in ${appRoot} (looked for ${ENTRIES.join(', ')})` : `The server entry ${file} does not exist`}. Fix: name it with --server <file>, or give the command after -- (panel-api dev -- node server.js).`;
  }
  return /\.m?ts$/.test(file) ? [process.execPath, '--import', 'tsx', file] : [process.execPath, file];
}

/** The lines of an error's message under its first line, before the stack: at most this many are told. */
const PROBLEM_LINES = 5;

/**
 * An error's first line, and when it is a heading (`Transform failed with 1 error:`, `The database
 * does not match the resources:`) the non-empty lines under it up to the stack, on one line, with
 * paths in the app relative to it: `… error: src/server.ts:15:18: ERROR: Unexpected ";"`.
 */
function withProblem(first: string, after: readonly string[], root: string): string {
  if (!first.trimEnd().endsWith(':')) return first;
  const problem: string[] = [];
  for (const line of after) {
    if (/^\s+at /.test(line) || (line.trim() === '' && problem.length > 0) || problem.length === PROBLEM_LINES) break;
    if (line.trim() !== '') problem.push(line.trim().split(root).join(''));
  }
  return [first.trimEnd(), ...problem].join(' ');
}

/**
 * The first error a crashed server printed and where, in the app's own code:
 * `TypeError: field.interger is not a function (app/panel/resources/book.ts:7)`.
 */
export function firstError(stderr: readonly string[], appRoot: string): string | undefined {
  const first = stderr.find((line) => /^([A-Z]\w*)?(Error|Exception)\b/.test(line) || /^\w+Error \[/.test(line));
  if (first === undefined) return undefined;
  const root = appRoot.endsWith(sep) ? appRoot : `${appRoot}${sep}`;
  const message = withProblem(first, stderr.slice(stderr.indexOf(first) + 1), root);
  for (const line of stderr.slice(stderr.indexOf(first))) {
    const frame = /^\s+at (?:.*\()?(?:file:\/\/)?(\/[^():]+|[A-Za-z]:\\[^():]+):(\d+):\d+\)?$/.exec(line);
    if (frame && frame[1]!.startsWith(root) && !frame[1]!.includes(`${sep}node_modules${sep}`)) {
      return `${message} (${relative(appRoot, frame[1]!).split(sep).join('/')}:${frame[2]})`;
    }
  }
  return message;
}

/**
 * The app's server as a child process: its output shown as is, standard error also kept, so
 * that a crash can be told in one line.
 */
export class AppServer {
  private child: ChildProcess | undefined;
  private stopping = false;
  private stderr: string[] = [];

  constructor(
    private readonly appRoot: string,
    private readonly command: readonly string[],
    /** Called when the server exits on its own (not stopped by `stop`), with its exit and first error. */
    private readonly onCrash: (exit: string, error: string | undefined) => void,
  ) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  start(): void {
    const [file, ...args] = this.command;
    this.stderr = [];
    this.stopping = false;
    const child = spawn(file!, args, { cwd: this.appRoot, stdio: ['inherit', 'inherit', 'pipe'], shell: process.platform === 'win32' });
    this.child = child;
    let partial = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      this.stderr.push(...lines);
      if (this.stderr.length > 400) this.stderr.splice(0, this.stderr.length - 400);
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (!this.stopping) this.onCrash(signal ? `signal ${signal}` : `exit code ${code}`, firstError([...this.stderr, partial], this.appRoot));
    });
    child.once('error', (error) => {
      if (this.child === child) this.child = undefined;
      this.onCrash('not started', error.message);
    });
  }

  /** SIGTERM, then SIGKILL after {@link CLOSE_MILLIS}; resolves once the process has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.stopping = true;
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_MILLIS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
    if (this.child === child) this.child = undefined;
  }
}
