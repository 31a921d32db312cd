import { runCli } from '../../src/index.js';

/** What one in-process `panel-api` run printed and returned. */
export interface PanelApiRun {
  readonly exitCode: number;
  /** Lines written to standard output. */
  readonly out: readonly string[];
  /** Lines written to standard error. */
  readonly err: readonly string[];
}

/**
 * Runs `panel-api` in process with `argv`, capturing what it prints.
 *
 * @example
 * const { exitCode, out } = await runPanelApi(['generate', '--root', appRoot]);
 */
export async function runPanelApi(argv: readonly string[]): Promise<PanelApiRun> {
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { exitCode, out, err };
}
