import type { ServerProcess } from '../servers/server-process.js';
import { requestHeaders, type BenchRequest } from '../load/endpoints.js';
import type { StatementCensus } from './round-trips.js';

/** Runs one request in a server under its statement listener: the statements, round trips and SQL it took. */
export async function requestCensus(server: ServerProcess, request: BenchRequest): Promise<StatementCensus & { status: number }> {
  return server.census({
    method: request.method,
    url: request.path,
    headers: requestHeaders(request),
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
}
