// npm run bench:startup: how long the demo takes from its command to its first answer, built
// (compiled JavaScript on plain node) and under tsx (`npm start`), with the phases measured
// inside the process. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '@panel/test-support';
import { compileDemo } from './compile-demo.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The request whose answer counts: a page of records, which needs the database, the panel and the API. */
const FIRST_REQUEST = { path: '/api/resources/v1/blog_posts?per_page=5', headers: { authorization: 'ApiKey demo-admin-key' } };

const USAGE = `npm run bench:startup -- [--runs N] [--only built,tsx]
  Starts the demo N times (default 5) per way of running it, after one cold start (no prepared
  snapshot), and prints the time from the command to the first records page, with the phases.`;

interface Mode {
  readonly name: 'built' | 'tsx';
  readonly command: string;
  readonly args: readonly string[];
  /** The prepared snapshot this way of running keeps (deleted before the cold start). */
  readonly snapshot: string;
}

interface Run {
  readonly millis: number;
  readonly phases: Record<string, number>;
  /** The CPU time (user + system) the server process had used when it listened: less sensitive to other work on the machine than the wall clock. */
  readonly cpuMillis: number;
}

/** Starts the demo, polls until the first records page answers 200, stops it; the time from spawn to that answer. */
async function startOnce(mode: Mode): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group, so that `npm start`'s whole chain (npm, sh, tsx, node) is stopped.
  const child = spawn(mode.command, mode.args, { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PORT: String(port), PANEL_STARTUP_TIMINGS: '1' } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exitCode: number | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code ?? -1;
      resolve();
    }),
  );
  try {
    for (;;) {
      if (exitCode !== null) throw new Error(`the demo (${mode.name}) exited with ${exitCode} before answering:\n${stderr}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}${FIRST_REQUEST.path}`, { headers: FIRST_REQUEST.headers });
        await response.arrayBuffer();
        if (response.status === 200) break;
        throw new Error(`the demo (${mode.name}) answered ${response.status} to ${FIRST_REQUEST.path}`);
      } catch (error) {
        if ((error as Error).message.startsWith('the demo')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const millis = performance.now() - started;
    const line = /^startup-phases (\{.*\}) cpu=(\d+)$/m.exec(stderr);
    return { millis, phases: line?.[1] ? (JSON.parse(line[1]) as Record<string, number>) : {}, cpuMillis: Number(line?.[2] ?? Number.NaN) };
  } finally {
    if (child.pid !== undefined && exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each phase's own length (the marks are times since the process started, at each phase's end). */
function phaseLengths(phases: Record<string, number>): Record<string, number> {
  const lengths: Record<string, number> = {};
  let previous = 0;
  for (const [name, at] of Object.entries(phases)) {
    lengths[name] = at - previous;
    previous = at;
  }
  return lengths;
}

function formatPhases(phases: Record<string, number>): string {
  return Object.entries(phaseLengths(phases))
    .map(([name, millis]) => `${name} ${Math.round(millis)}`)
    .join(' · ');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, only: { type: 'string', default: 'built,tsx' }, help: { type: 'boolean', default: false } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of 1 or more, instead got "${values.runs}".`);
  const only = values.only.split(',').map((s) => s.trim());
  for (const name of only) if (name !== 'built' && name !== 'tsx') throw new Error(`--only: unknown way "${name}"; use built, tsx or both, comma-separated.`);

  const modes: Mode[] = [];
  if (only.includes('built')) {
    const server = compileDemo();
    modes.push({ name: 'built', command: process.execPath, args: [server], snapshot: join(REPO_ROOT, 'bench/.tmp-startup/examples/blog/.pglite/demo-snapshot.tar') });
  }
  if (only.includes('tsx')) modes.push({ name: 'tsx', command: 'npm', args: ['start', '--silent'], snapshot: join(REPO_ROOT, 'examples/blog/.pglite/demo-snapshot.tar') });

  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`first answer: GET ${FIRST_REQUEST.path} → 200, timed from the command's spawn; cpu: the server process's CPU time when it listened; phases in ms (measured inside the process)\n`);
  for (const mode of modes) {
    rmSync(mode.snapshot, { force: true });
    const cold = await startOnce(mode);
    console.log(`${mode.name.padEnd(5)} cold  ${String(Math.round(cold.millis)).padStart(6)} ms   cpu ${String(cold.cpuMillis).padStart(5)} ms   ${formatPhases(cold.phases)}`);
    const warm: Run[] = [];
    for (let i = 0; i < runs; i++) {
      const run = await startOnce(mode);
      warm.push(run);
      console.log(`${mode.name.padEnd(5)} warm  ${String(Math.round(run.millis)).padStart(6)} ms   cpu ${String(run.cpuMillis).padStart(5)} ms   ${formatPhases(run.phases)}`);
    }
    const names = Object.keys(warm[0]?.phases ?? {});
    const medianPhases = Object.fromEntries(names.map((name) => [name, median(warm.map((run) => run.phases[name] ?? 0))]));
    console.log(
      `${mode.name.padEnd(5)} median of ${runs} warm starts: ${Math.round(median(warm.map((run) => run.millis)))} ms, cpu ${Math.round(median(warm.map((run) => run.cpuMillis)))} ms (${formatPhases(medianPhases)}; then the first request)\n`,
    );
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

await main();
