import { PanelConfigError } from '../errors/panel-errors.js';

/**
 * How long the database may take before a request gives up on it. Every limit is in
 * milliseconds; `0` turns one off (not recommended: a frozen database then hangs requests).
 */
export interface DatabaseTimeouts {
  /**
   * Connecting to PostgreSQL, and waiting for a free pooled connection when all are busy
   * (pg's pool measures both with one clock, `connectionTimeoutMillis`). Default 5000.
   */
  readonly connectionTimeoutMillis: number;
  /** PostgreSQL's `statement_timeout`: the server cancels a statement that runs longer (57014). Default 10000. */
  readonly statementTimeoutMillis: number;
  /**
   * How long the client waits for a statement's answer: what bounds a request when the server
   * or the network is frozen and cannot cancel anything itself. Default: the statement timeout
   * plus 2000 (12000), so the server's own cancellation normally comes first; 0 when the
   * statement timeout is 0.
   */
  readonly queryTimeoutMillis: number;
  /** A pooled connection unused this long is closed. Default 10000 (pg's default). */
  readonly idleTimeoutMillis: number;
}

/** The database timeouts' defaults; see `DatabaseTimeouts`. */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = Object.freeze({
  connectionTimeoutMillis: 5_000,
  statementTimeoutMillis: 10_000,
  queryTimeoutMillis: 12_000,
  idleTimeoutMillis: 10_000,
});

/** How much later than the server's statement timeout the client stops waiting. */
const QUERY_TIMEOUT_MARGIN_MILLIS = 2_000;

const NAMES = ['connectionTimeoutMillis', 'statementTimeoutMillis', 'queryTimeoutMillis', 'idleTimeoutMillis'] as const;

/**
 * Checks the timeouts an app set (once, at startup) and fills in the defaults. A value that is
 * not a whole number of milliseconds from 0 to 2^31-1 fails, naming the option and the fix.
 */
export function normalizeDatabaseTimeouts(input: Partial<Record<(typeof NAMES)[number], unknown>>): DatabaseTimeouts {
  for (const name of NAMES) {
    const value = input[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1)) {
      throw new PanelConfigError(`Database ${name} must be a whole number of milliseconds (0 turns it off), instead got ${JSON.stringify(value)}. Fix: set it to a number such as ${DEFAULT_DATABASE_TIMEOUTS[name]}, or leave it out for that default.`);
    }
  }
  const statementTimeoutMillis = (input.statementTimeoutMillis as number | undefined) ?? DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMillis;
  // An app that turns statement timeouts off wants long statements: the client waits as long, unless told otherwise.
  const derivedQueryTimeout = statementTimeoutMillis === 0 ? 0 : statementTimeoutMillis + QUERY_TIMEOUT_MARGIN_MILLIS;
  return Object.freeze({
    connectionTimeoutMillis: (input.connectionTimeoutMillis as number | undefined) ?? DEFAULT_DATABASE_TIMEOUTS.connectionTimeoutMillis,
    statementTimeoutMillis,
    queryTimeoutMillis: (input.queryTimeoutMillis as number | undefined) ?? derivedQueryTimeout,
    idleTimeoutMillis: (input.idleTimeoutMillis as number | undefined) ?? DEFAULT_DATABASE_TIMEOUTS.idleTimeoutMillis,
  });
}
