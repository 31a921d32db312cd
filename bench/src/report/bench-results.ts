import type { StatementCensus } from '../census/round-trips.js';
import type { LoadFigures } from '../load/drive-load.js';
import type { Reference } from '../load/endpoints.js';

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

/** One endpoint: the API and its reference server, and their ratio. */
export interface EndpointResult {
  readonly name: string;
  readonly title: string;
  readonly target: number | null;
  /** Whether the API's p99 must be no worse than the reference's (the mix). */
  readonly p99NoWorse: boolean;
  /** What the API is compared with: the hand-written baseline, the limit, or the API sent the requests without the headers under test (`api-plain`). */
  readonly against: Reference;
  readonly api: ServerFigures;
  /** The reference server's figures (the baseline's or the limit's, as `against` says). */
  readonly baseline: ServerFigures;
  /** API requests/s over the reference's requests/s. */
  readonly ratio: number;
}

/** A whole run, as written under bench/results/. */
export interface BenchResults {
  readonly startedAt: string;
  readonly node: string;
  readonly postgres: string;
  readonly cores: number;
  readonly loadAverageAtStart: readonly number[];
  readonly settings: { readonly workers: number; readonly connections: number; readonly seconds: number; readonly warmupSeconds: number; readonly rounds: number; /** The demo API's count strategy as JSON. */ readonly count?: string };
  readonly seed: { readonly reused: boolean; readonly seconds: number };
  readonly endpoints: EndpointResult[];
  readonly totalSeconds: number;
}

/** The RSS ceiling of the API process (the target). */
export const RSS_TARGET = 150 * 1024 * 1024;
