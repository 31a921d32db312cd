import type { StatementCensus } from '../census/round-trips.js';
import type { LoadFigures } from '../load/drive-load.js';

/** One server's figures on one endpoint. */
export interface ServerFigures extends LoadFigures {
  /** Median of the rounds' p50 and worst of their p99 (ms). */
  readonly p50: number;
  readonly p99: number;
  /** Peak resident set of the serving process during the run (the largest worker in cluster mode), bytes. */
  readonly peakRss: number;
  /** Sum of the workers' peaks (cluster mode), bytes. */
  readonly peakRssTotal: number;
  readonly census: Omit<StatementCensus, 'sql'> | null;
}

/** One endpoint: both servers and their ratio. */
export interface EndpointResult {
  readonly name: string;
  readonly title: string;
  readonly target: number | null;
  readonly api: ServerFigures;
  readonly baseline: ServerFigures;
  /** API requests/s over baseline requests/s. */
  readonly ratio: number;
}

/** A whole run, as written under bench/results/. */
export interface BenchResults {
  readonly startedAt: string;
  readonly node: string;
  readonly postgres: string;
  readonly cores: number;
  readonly loadAverageAtStart: readonly number[];
  readonly settings: { readonly workers: number; readonly connections: number; readonly seconds: number; readonly warmupSeconds: number; readonly rounds: number };
  readonly seed: { readonly reused: boolean; readonly seconds: number };
  readonly endpoints: EndpointResult[];
  readonly totalSeconds: number;
}

/** The RSS ceiling of the API process (the target). */
export const RSS_TARGET = 150 * 1024 * 1024;
