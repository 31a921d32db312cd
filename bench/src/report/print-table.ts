import { RSS_TARGET, type BenchResults, type EndpointResult, type ServerFigures } from './bench-results.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
}

function serverCells(name: string, figures: ServerFigures, workers: number): string[] {
  return [
    name,
    figures.requestsPerSecond.toFixed(0),
    `${figures.p50}`,
    `${figures.p99}`,
    `${figures.errors}`,
    workers > 1 ? `${mb(figures.peakRss)} (Σ ${mb(figures.peakRssTotal)})` : mb(figures.peakRss),
    figures.census ? `${figures.census.statements}` : '–',
    figures.census ? `${figures.census.roundTrips}` : '–',
  ];
}

/** Whether an endpoint met its targets: its ratio, no errors, and the API under the RSS ceiling. */
export function verdict(result: EndpointResult): { met: boolean; misses: string[] } {
  const misses: string[] = [];
  if (result.target !== null && result.ratio < result.target) misses.push(`ratio ${result.ratio.toFixed(3)}× < ${result.target}×`);
  if (result.p99NoWorse && result.api.p99 > result.baseline.p99) misses.push(`API p99 ${result.api.p99} ms > ${result.against} ${result.baseline.p99} ms`);
  if (result.api.errors > 0 || result.baseline.errors > 0) misses.push('errors');
  if (result.api.peakRss >= RSS_TARGET) misses.push(`API RSS ${mb(result.api.peakRss)} ≥ 150 MB`);
  return { met: misses.length === 0, misses };
}

/** One table per endpoint: requests/s, latency, errors, peak RSS, statements and round trips, and the ratio API / reference. */
export function formatEndpoint(result: EndpointResult, workers: number): string {
  const widths = [10, 8, 7, 7, 7, workers > 1 ? 20 : 9, 11, 12];
  const { met, misses } = verdict(result);
  const target = result.target === null ? 'no target' : `target ≥ ${result.target}×${result.p99NoWorse ? ', p99 no worse' : ''}`;
  return [
    `${result.title} (${target})`,
    row(['server', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS', 'statements', 'round trips'], widths),
    row(serverCells('API', result.api, workers), widths),
    row(serverCells(result.against, result.baseline, workers), widths),
    `ratio API/${result.against}: ${result.ratio.toFixed(2)}×  ${met ? 'met' : `NOT MET (${misses.join(', ')})`}`,
  ].join('\n');
}

/** The whole report: a header, a table per endpoint, and the summary of targets. */
export function formatResults(results: BenchResults): string {
  const { settings } = results;
  const header = [
    `Panel API bench, ${results.startedAt}: node ${results.node}, ${results.postgres}, ${results.cores} cores, load average at start ${results.loadAverageAtStart.map((n) => n.toFixed(2)).join(' ')}`,
    `${settings.workers > 1 ? `cluster of ${settings.workers} workers per server, ` : 'one process per server, '}${settings.connections} connections, ${settings.seconds} s per server and endpoint in ${settings.rounds} alternating rounds (each after a ${settings.warmupSeconds} s warm-up), p50 the rounds' median and p99 their worst; seed ${results.seed.reused ? 'reused' : `made in ${results.seed.seconds.toFixed(1)} s`}${process.env.BENCH_UNNAMED_STATEMENTS === '1' ? '; every server sends its statements unnamed (--unnamed-statements)' : '; every server (API, hand-written, limit) names its statements with parameters (prepared, the API\'s default on a direct connection)'}`,
    ...(settings.count === undefined ? [] : [`the demo API counts with ${settings.count}${settings.count.includes('reuseUnchangedMs') ? " (exact, the scan skipped while nothing has committed: docs/scaling.md#an-exact-count-reused-while-the-database-is-unchanged)" : ''}; the equal-work API counts on every page`]),
  ].join('\n');
  const summary = results.endpoints.map((result) => {
    const { met, misses } = verdict(result);
    return `  ${result.name.padEnd(20)} ${result.ratio.toFixed(2).padStart(6)}× ${`of the ${result.against}`.padEnd(15)} ${met ? 'met' : `not met: ${misses.join(', ')}`}`;
  });
  return [header, ...results.endpoints.map((result) => formatEndpoint(result, settings.workers)), `Targets (total ${results.totalSeconds.toFixed(0)} s):\n${summary.join('\n')}`].join('\n\n');
}

/** One row of issue 29's table: the figure, the endpoint that measures it and its target. */
interface IssueRow {
  readonly figure: string;
  readonly endpoint: string;
  readonly target: number | null;
  readonly p99NoWorse?: boolean;
}

/** Issue 29's table (the request pipeline against hand-written code and its limit), in its order; the token rows are `npm run bench:tokens`'s. */
const ISSUE_29: readonly (IssueRow | { readonly figure: string; readonly elsewhere: string })[] = [
  { figure: 'equal work: show, scalar fields / hand-written (50 conn.)', endpoint: 'equal_show', target: 1 },
  { figure: 'equal work: index page 1 / hand-written (1 conn.)', endpoint: 'equal_index_1', target: 1 },
  { figure: 'equal work: index page 1 / hand-written (50 conn.)', endpoint: 'equal_index_50', target: null },
  { figure: 'show / its limit (the demo\'s show)', endpoint: 'limit_show', target: 0.97 },
  { figure: 'show / its limit (equal work, 50 conn.)', endpoint: 'equal_show_limit', target: 0.97 },
  { figure: 'show, Edition B token / Edition A key', elsewhere: 'npm run bench:tokens (target ≥ 0.97×)' },
  { figure: 'index (25), token / key', elsewhere: 'npm run bench:tokens (target ≥ 0.97×)' },
  { figure: 'create / hand-written baseline', endpoint: 'create', target: 1.1 },
  { figure: 'PATCH / hand-written baseline', endpoint: 'update', target: 1.1 },
  { figure: 'realistic mix, exact count / baseline', endpoint: 'mix', target: 1, p99NoWorse: true },
  { figure: 'realistic mix / its limit', endpoint: 'mix_limit', target: 0.9 },
];

/** Issue 29's table with this run's figures: each ratio against its target (and the p99s where the target names them), or why it is not here. */
export function formatIssue29(results: BenchResults): string {
  const head = ['figure', 'ratio', 'target', 'API p99', 'ref. p99', 'verdict'];
  const rows = ISSUE_29.map((row) => {
    if ('elsewhere' in row) return [row.figure, '', '', '', '', row.elsewhere];
    const result = results.endpoints.find((endpoint) => endpoint.name === row.endpoint);
    const target = row.target === null ? 'none' : `≥ ${row.target}×${row.p99NoWorse ? ', p99 no worse' : ''}`;
    if (!result) return [row.figure, '–', target, '', '', `not run (--only ${row.endpoint})`];
    const misses: string[] = [];
    if (row.target !== null && result.ratio < row.target) misses.push('ratio');
    if (row.p99NoWorse && result.api.p99 > result.baseline.p99) misses.push('p99');
    if (result.api.errors + result.baseline.errors > 0) misses.push('errors');
    return [row.figure, `${result.ratio.toFixed(2)}×`, target, `${result.api.p99} ms`, `${result.baseline.p99} ms`, misses.length === 0 ? 'met' : `NOT MET (${misses.join(', ')})`];
  });
  const widths = head.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [`Issue 29's table (load average at start ${results.loadAverageAtStart.map((n) => n.toFixed(2)).join(' ')}):`, line(head), ...rows.map(line)].join('\n');
}
