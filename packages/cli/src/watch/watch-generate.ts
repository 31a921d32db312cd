import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { RESOURCES_DIR } from '../config/app-config.js';
import { generateAction, type GenerateContext } from '../actions/generate-action.js';
import { clock, regenerate } from './regenerate.js';
import { watchFolders } from './watch-folders.js';

/** What `generate --watch` was asked for. */
export interface WatchContext extends GenerateContext {
  /** A command run beside the watcher (`-- tsx watch src/server.ts`), stopped with it. */
  readonly command?: readonly string[] | undefined;
  /** Stops the watcher (and the command) when aborted; tests abort it, a terminal sends Ctrl-C. */
  readonly signal?: AbortSignal | undefined;
  /** The clock of the printed lines. */
  readonly now?: () => Date;
}

/**
 * `panel-api generate --watch`: generates once, then watches the resources folder and, after
 * each change, creates the controllers of new resources (never touching a file that exists:
 * this is `generate` without `--force`) and regenerates `openapi/<version>.json` when the app
 * keeps one. Each change prints one line: the time, the files that changed, what was written.
 * Resolves with the exit code when the signal aborts.
 */
export async function watchGenerate(context: WatchContext): Promise<number> {
  const now = context.now ?? (() => new Date());
  // The first run reports what it wrote and any problem; the files it skips (all of them, on a usual start) are not news.
  const first = await generateAction({ ...context, print: (line) => (line.startsWith('•') ? undefined : context.print(line)) });
  if (first.exitCode !== 0 && !existsSync(join(context.appRoot, context.resourcesDir ?? RESOURCES_DIR))) return first.exitCode;
  const resourcesDir = context.resourcesDir ?? RESOURCES_DIR;
  const watched = join(context.appRoot, resourcesDir);
  let running: Promise<void> = Promise.resolve();

  const onChange = async (changed: readonly string[]) => {
    const { written, problems } = await regenerate(context);
    const what = problems.length > 0 ? `not generated: ${problems[0]}` : written.length > 0 ? written.join('; ') : 'nothing to write (existing files are never touched)';
    const line = `[${clock(now())}] ${changed.join(', ')} changed: ${what}`;
    if (problems.length > 0) context.printError(line);
    else context.print(line);
  };

  let watcher: { close(): void };
  try {
    watcher = watchFolders(context.appRoot, [resourcesDir], (changed) => {
      running = running.then(() => onChange(changed));
    });
  } catch (error) {
    context.printError(`Cannot watch ${watched}: ${(error as Error).message}`);
    return 1;
  }
  context.print(`Watching ${relative(context.appRoot, watched).split(sep).join('/')} for changes (Ctrl-C stops).`);

  let child: ChildProcess | undefined;
  if (context.command && context.command.length > 0) {
    const [file, ...args] = context.command;
    // The app's own command (npm run dev: the server under tsx), in the app root, its output shown as is.
    child = spawn(file!, args, { cwd: context.appRoot, stdio: 'inherit', shell: process.platform === 'win32' });
  }
  return new Promise((resolve) => {
    let stopped = false;
    const onSignal = () => void stop(0);
    const stop = async (code: number) => {
      if (stopped) return;
      stopped = true;
      watcher.close();
      child?.kill();
      await running;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(code);
    };
    child?.on('exit', (code) => void stop(code ?? 0));
    context.signal?.addEventListener('abort', () => void stop(0), { once: true });
    // A second Ctrl-C (npm run passes the terminal's on) finds the listener still there.
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
