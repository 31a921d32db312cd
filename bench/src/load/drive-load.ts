import autocannon from 'autocannon';
import { requestHeaders, type BenchRequest } from './endpoints.js';

/** How hard and how long each server is driven. */
export interface LoadSettings {
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/** The figures of one server on one endpoint. */
export interface LoadFigures {
  readonly requests: number;
  /** How long the timed run lasted, seconds. */
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Connection errors, timeouts and answers that are not 2xx. */
  readonly errors: number;
}

/**
 * Drives one endpoint of a server with autocannon: a warm-up, then the timed run, every
 * connection taking the next request of the sequence (with that request's key).
 */
export async function driveLoad(origin: string, sequence: (n: number) => BenchRequest, settings: LoadSettings): Promise<LoadFigures> {
  let n = 0;
  const result = await autocannon({
    url: origin,
    connections: settings.connections,
    duration: settings.seconds,
    ...(settings.warmupSeconds > 0 ? { warmup: { connections: settings.connections, duration: settings.warmupSeconds } } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const next = sequence(n++);
          return { ...request, method: next.method, path: next.path, headers: requestHeaders(next), ...(next.body === undefined ? {} : { body: next.body }) };
        },
      },
    ],
  } as autocannon.Options);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}
