import { DatabaseUnavailableError, isPanelError, type DatabaseUnavailableReason } from '../errors/panel-errors.js';
import { isStalePlan } from './stale-plan.js';

// Node's socket errors that mean the server cannot be reached or went away.
const SOCKET_CODES: Readonly<Record<string, DatabaseUnavailableReason>> = {
  ECONNREFUSED: 'connection',
  ECONNRESET: 'connection',
  ECONNABORTED: 'connection',
  EPIPE: 'connection',
  EHOSTUNREACH: 'connection',
  ENETUNREACH: 'connection',
  ENOTFOUND: 'connection',
  EAI_AGAIN: 'connection',
  ETIMEDOUT: 'timeout',
};

// The driver's own messages, for the failures it reports without a code (pg and pg-pool, PGlite).
const MESSAGES: readonly [RegExp, DatabaseUnavailableReason][] = [
  [/^timeout exceeded when trying to connect$/i, 'timeout'],
  [/^Connection terminated due to connection timeout$/i, 'timeout'],
  [/^Query read timeout$/i, 'timeout'],
  [/^Connection terminated( unexpectedly)?$/i, 'connection'],
  [/^Client has encountered a connection error and is not queryable$/i, 'connection'],
  [/^Client was closed and is not queryable$/i, 'connection'],
  [/^Cannot use a pool after calling end on the pool$/i, 'closed'],
  [/^PGlite is clos(ed|ing)$/i, 'closed'],
  [/^driver has already been destroyed$/i, 'closed'],
];

/**
 * The PostgreSQL SQLSTATEs that say "the server cannot serve this now", not "this statement is
 * wrong": class 08 (connection exception), 57P01–57P05 (admin shutdown, crash shutdown, cannot
 * connect now, database dropped, idle session timeout), 57014 (statement cancelled by
 * `statement_timeout`), 53300 (too many connections), 55000 only as a connection's refusal (a
 * database `ALLOW_CONNECTIONS false`: its `routine` is `CheckMyDatabase`; elsewhere 55000 is a
 * statement's own error, such as `lastval` not yet defined). 3D000 (no such database), 28000
 * and 28P01 (authentication refused) come only from connecting: the settings, not the
 * statement, are wrong, so they are `configuration`. 40P01 (deadlock detected) and 40001
 * (serialization failure) are `conflict`: PostgreSQL rolled the transaction back to break a
 * wait on another one's locks, as `statement_timeout` cuts a lock wait short (57014), and the
 * same request may work now.
 */
function reasonOfSqlState(code: string, error: { routine?: unknown; message?: unknown }): DatabaseUnavailableReason | undefined {
  if (code.startsWith('08')) return 'connection';
  if (/^57P0[1-5]$/.test(code)) return 'connection';
  if (code === '57014') return 'timeout';
  if (code === '53300') return 'capacity';
  if (code === '40P01' || code === '40001') return 'conflict';
  if (code === '55000' && (error.routine === 'CheckMyDatabase' || (typeof error.message === 'string' && /is not currently accepting connections/.test(error.message)))) return 'connection';
  if (code === '3D000' || code === '28000' || code === '28P01') return 'configuration';
  return undefined;
}

/**
 * Whether a driver error means the database is unavailable, and why; undefined for every other
 * error (a constraint, a syntax error, a bug). The one place that knows the driver's errors:
 * everything else checks `PANEL_ERR_DATABASE_UNAVAILABLE`.
 */
export function databaseUnavailableReason(error: unknown): DatabaseUnavailableReason | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if (isPanelError(error, 'PANEL_ERR_DATABASE_UNAVAILABLE')) return (error as DatabaseUnavailableError).reason;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES[code] !== undefined) return SOCKET_CODES[code];
    // A prepared statement's plan refused in a transaction after a migration changed its columns
    // (`openDatabase({ preparedStatements })`): every connection prepares it again, so a retry
    // works; the records layer's own transactions retry at once (`retryAfterStalePlan`).
    if (isStalePlan(error)) return 'connection';
    if (/^[0-9A-Z]{5}$/.test(code)) return reasonOfSqlState(code, error as { routine?: unknown; message?: unknown });
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string') {
    for (const [pattern, reason] of MESSAGES) if (pattern.test(message)) return reason;
  }
  // pg-pool wraps a connect timeout around the socket error; an AggregateError holds one per address.
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) return databaseUnavailableReason(cause);
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) return databaseUnavailableReason(errors[0]);
  return undefined;
}

/**
 * The error to throw for a driver error: a `DatabaseUnavailableError` (the driver's error as
 * its `cause`) when the database is unavailable, else the error itself.
 */
export function asDatabaseUnavailable(error: unknown): unknown {
  if (isPanelError(error)) return error;
  const reason = databaseUnavailableReason(error);
  if (reason === undefined) return error;
  const code = (error as { code?: unknown }).code;
  const detail = `${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message ?? String(error)}`;
  return new DatabaseUnavailableError(reason, `The database is unavailable (${reason}): ${detail}`, { cause: error });
}
