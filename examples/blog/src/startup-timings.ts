/**
 * The demo's start-up phases, for `npm run bench:startup`: with `PANEL_STARTUP_TIMINGS=1` the
 * server prints one line `startup-phases {...} cpu=<ms>` (milliseconds since the process
 * started, at the end of each phase; then the CPU time the process used so far) once it
 * listens. Off by default: nothing is recorded or printed.
 */
const enabled = process.env.PANEL_STARTUP_TIMINGS === '1';
const marks: [string, number][] = [];

/** Records the end of a start-up phase (no-op unless `PANEL_STARTUP_TIMINGS=1`). */
export function markStartupPhase(name: string): void {
  if (enabled) marks.push([name, Math.round(performance.now())]);
}

/** Prints the recorded phases as one line on standard error (no-op unless `PANEL_STARTUP_TIMINGS=1`). */
export function printStartupPhases(): void {
  if (!enabled) return;
  const { user, system } = process.cpuUsage();
  console.error(`startup-phases ${JSON.stringify(Object.fromEntries(marks))} cpu=${Math.round((user + system) / 1000)}`);
}
