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
    `${settings.workers > 1 ? `cluster of ${settings.workers} workers per server, ` : 'one process per server, '}${settings.connections} connections, ${settings.seconds} s per server and endpoint in ${settings.rounds} alternating rounds (each after a ${settings.warmupSeconds} s warm-up), p50 the rounds' median and p99 their worst; seed ${results.seed.reused ? 'reused' : `made in ${results.seed.seconds.toFixed(1)} s`}`,
  ].join('\n');
  const summary = results.endpoints.map((result) => {
    const { met, misses } = verdict(result);
    return `  ${result.name.padEnd(20)} ${result.ratio.toFixed(2).padStart(6)}× ${`of the ${result.against}`.padEnd(15)} ${met ? 'met' : `not met: ${misses.join(', ')}`}`;
  });
  return [header, ...results.endpoints.map((result) => formatEndpoint(result, settings.workers)), `Targets (total ${results.totalSeconds.toFixed(0)} s):\n${summary.join('\n')}`].join('\n\n');
}
