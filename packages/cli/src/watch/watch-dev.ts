import { existsSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { RESOURCES_DIR } from '../config/app-config.js';
import { findNearbyAppRoot } from '../discovery/find-app-root.js';
import { messages } from '../messages.js';
import { checkAction } from '../actions/check-action.js';
import type { GenerateContext } from '../actions/generate-action.js';
import { AppServer, serverCommand } from './app-server.js';
import { clock, regenerate } from './regenerate.js';
import { watchFolders } from './watch-folders.js';

/** What `panel-api dev` was asked for. */
export interface DevContext extends GenerateContext {
  /** The server entry (`src/server.ts`); default: the first of `src/server.{ts,mts,js,mjs}`. */
  readonly server?: string | undefined;
  /** The command that starts the server instead (`-- node --env-file=.env server.js`). */
  readonly command?: readonly string[] | undefined;
  /** Stops the server and the watcher when aborted. */
  readonly signal?: AbortSignal | undefined;
  readonly now?: () => Date;
}

/** The folders watched besides the resources folder, when they exist: the app's code, its server, its database code. */
const APP_FOLDERS = ['app', 'src', 'db'];

/** An app's own writes (the controllers it generated) are not changes for this long. */
const OWN_WRITE_MILLIS = 2_000;

/** The folders to watch: each existing one once, none inside another. */
function foldersToWatch(appRoot: string, resourcesDir: string): string[] {
  const folders = [...new Set([resourcesDir, ...APP_FOLDERS].map((folder) => posix.normalize(folder.split('\\').join('/')).replace(/\/$/, '')))];
  const existing = folders.filter((folder) => existsSync(join(appRoot, folder)));
  return existing.filter((folder) => !existing.some((other) => other !== folder && folder.startsWith(`${other}/`)));
}

/** The problems `generate --check` reports (a field-builder typo, an orphaned controller, a broken import …): its lines, or none. */
async function checkProblems(context: GenerateContext): Promise<string[]> {
  const lines: string[] = [];
  const exitCode = await checkAction({ ...context, allVersions: false, print: () => undefined, printError: (line) => lines.push(line) });
  return exitCode === 0 ? [] : lines;
}

/**
 * `panel-api dev`: generates, starts the app's server, then watches the app's code (the resources
 * folder, `app/`, `src/`, `db/`). After each change it regenerates (as `generate --watch` does),
 * checks the app as `generate --check` does, and restarts the server (the old one closed first).
 * When the check finds a problem, it prints the first one with its file:line and fix, and the
 * server that runs keeps serving the last good version. Resolves with the exit code once stopped.
 */
export async function watchDev(context: DevContext): Promise<number> {
  const now = context.now ?? (() => new Date());
  const stamp = () => `[${clock(now())}]`;
  // The app root first: run from src/, the fix is the `cd ..` the other commands give, not --server.
  const resourcesDir = context.resourcesDir ?? RESOURCES_DIR;
  if (!existsSync(join(context.appRoot, resourcesDir))) {
    context.printError(messages.noResourcesFolder(resolve(context.appRoot), resourcesDir, findNearbyAppRoot(resolve(context.appRoot), resourcesDir)));
    return 2;
  }
  const command = serverCommand(context.appRoot, context.server, context.command ?? []);
  if (typeof command === 'string') {
    context.printError(command);
    return 2;
  }
  const ownWrites = new Map<string, number>();
  const server = new AppServer(context.appRoot, command, (exit, error) =>
    context.printError(`${stamp()} The server stopped (${exit})${error ? `: ${error.replace(/\.$/, '')}` : ''}. It starts again at the next change.`),
  );

  /** Regenerates and checks; the first problem and its fix, or what was written. */
  const build = async (): Promise<{ problems: string[]; written: readonly string[] }> => {
    const outcome = await regenerate(context);
    const at = Date.now();
    for (const file of outcome.files) ownWrites.set(file, at);
    if (outcome.problems.length > 0) return { problems: [...outcome.problems], written: outcome.written };
    return { problems: await checkProblems(context), written: outcome.written };
  };
  const reportProblems = (head: string, problems: readonly string[]) => {
    // The first problem, then the check's summary line with its fix (the last line) when there is one.
    const summary = problems.length > 1 ? ` ${problems[problems.length - 1]}` : '';
    const state = server.running ? 'The server keeps serving the last good version.' : 'The server starts once this is fixed.';
    context.printError(`${head}: ${problems[0]}${summary} ${state}`);
  };

  const first = await build();
  for (const line of first.written) context.print(`✓ ${line}`);
  if (first.problems.length > 0) reportProblems(`${stamp()} Not started`, first.problems);
  else server.start();

  let running: Promise<void> = Promise.resolve();
  const onChange = async (changed: readonly string[]) => {
    const at = Date.now();
    const theirs = changed.filter((file) => !(at - (ownWrites.get(file) ?? 0) < OWN_WRITE_MILLIS));
    if (theirs.length === 0) return;
    const head = `${stamp()} ${theirs.join(', ')} changed`;
    const outcome = await build();
    if (outcome.problems.length > 0) return reportProblems(`${head}: not restarted`, outcome.problems);
    context.print(`${head}: ${[...outcome.written, server.running ? 'restarting the server' : 'starting the server'].join('; ')}`);
    await server.stop();
    server.start();
  };
  const watched = foldersToWatch(context.appRoot, resourcesDir);
  let watcher: { close(): void };
  try {
    watcher = watchFolders(context.appRoot, watched, (changed) => {
      running = running.then(() => onChange(changed));
    });
  } catch (error) {
    await server.stop();
    context.printError(`Cannot watch ${watched.join(', ')}: ${(error as Error).message}`);
    return 1;
  }
  context.print(`Watching ${watched.join(', ')} for changes (Ctrl-C stops).`);

  return new Promise((resolve) => {
    let stopped = false;
    const onSignal = () => void stop();
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      watcher.close();
      await running;
      await server.stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(0);
    };
    context.signal?.addEventListener('abort', () => void stop(), { once: true });
    // Ctrl-C reaches this process twice (from the terminal and from npm run, which passes it on):
    // listening until the server has stopped keeps the second from ending this one midway.
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
