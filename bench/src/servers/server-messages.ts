import type { StatementCensus } from '../census/round-trips.js';

/** One request the harness asks a server to run under its statement listener. */
export interface CensusRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

/** What the harness sends a server child. */
export type ParentMessage = { type: 'census'; id: number; request: CensusRequest } | { type: 'stop' };

/** What a server child sends the harness: `ready` with the pids serving (the workers, in cluster mode), or a census answer. */
export type ChildMessage = { type: 'ready'; pids: number[] } | { type: 'census'; id: number; result: StatementCensus & { status: number } };
