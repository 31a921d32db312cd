import type { FastifyInstance } from 'fastify';
import type { TimedStatement } from '../census/round-trips.js';

/** A server built in a child process: its Fastify app, a statement listener (start and end times), and how to close it. */
export interface BenchServer {
  readonly app: FastifyInstance;
  onStatement(listener: (statement: TimedStatement) => void): () => void;
  close(): Promise<void>;
}

/** What a child process needs to build its server. */
export interface ServerSettings {
  readonly url: string;
  readonly schema: string;
  /** The API's count strategy (the panel's `count` option) as JSON; default the exact count. */
  readonly count?: string | undefined;
  /** Read replicas of the database (`openDatabase`'s `replicas`), comma-separated URLs; none by default. */
  readonly replicas?: string | undefined;
}
