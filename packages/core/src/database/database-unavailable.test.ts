import { describe, expect, it } from 'vitest';
import { asDatabaseUnavailable, databaseUnavailableReason } from './database-unavailable.js';
import { DatabaseUnavailableError, isPanelError, RecordInvalidError } from '../errors/panel-errors.js';

/** A driver error as pg and Node make them: a message and a code. */
const driverError = (message: string, code?: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), code ? { code } : {}, extra);

describe('databaseUnavailableReason: the one place that knows the drivers\' outage errors', () => {
  it.each([
    ['connection refused', driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'connection'],
    ['connection reset', driverError('read ECONNRESET', 'ECONNRESET'), 'connection'],
    ['socket timeout', driverError('connect ETIMEDOUT', 'ETIMEDOUT'), 'timeout'],
    ['pg-pool waiting for a connection', driverError('timeout exceeded when trying to connect'), 'timeout'],
    ['pg connect timeout', driverError('Connection terminated due to connection timeout'), 'timeout'],
    ['pg query timeout', driverError('Query read timeout'), 'timeout'],
    ['connection lost mid-query', driverError('Connection terminated unexpectedly'), 'connection'],
    ['a client whose connection failed', driverError('Client has encountered a connection error and is not queryable'), 'connection'],
    ['57P01 admin_shutdown (pg_terminate_backend, a restart)', driverError('terminating connection due to administrator command', '57P01'), 'connection'],
    ['57P02 crash_shutdown', driverError('terminating connection because of crash of another server process', '57P02'), 'connection'],
    ['57P03 cannot_connect_now (starting up, recovery)', driverError('the database system is starting up', '57P03'), 'connection'],
    ['08006 connection_failure', driverError('connection failure', '08006'), 'connection'],
    ['08001 unable to connect', driverError('could not connect', '08001'), 'connection'],
    ['53300 too_many_connections', driverError('sorry, too many clients already', '53300'), 'capacity'],
    ['55000 a database not accepting connections (ALLOW_CONNECTIONS false)', driverError('database "shop" is not currently accepting connections', '55000', { routine: 'CheckMyDatabase' }), 'connection'],
    ['3D000 no such database (the settings)', driverError('database "shop" does not exist', '3D000'), 'configuration'],
    ['28P01 password authentication failed (the settings)', driverError('password authentication failed for user "shop"', '28P01'), 'configuration'],
    ['28000 no pg_hba.conf entry (the settings)', driverError('no pg_hba.conf entry for host', '28000'), 'configuration'],
    ['57014 statement_timeout', driverError('canceling statement due to statement timeout', '57014'), 'timeout'],
    ['a pool after end()', driverError('Cannot use a pool after calling end on the pool'), 'closed'],
    ['a closed PGlite', driverError('PGlite is closed'), 'closed'],
    ['a destroyed Kysely', driverError('driver has already been destroyed'), 'closed'],
    ['every address refused (AggregateError)', Object.assign(new AggregateError([driverError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), {}), 'connection'],
    ['a timeout wrapping its cause', driverError('wrapped', undefined, { cause: driverError('x', 'ECONNRESET') }), 'connection'],
  ] as const)('%s → %s', (_what, error, reason) => {
    expect(databaseUnavailableReason(error)).toBe(reason);
  });

  it.each([
    ['a unique violation', driverError('duplicate key', '23505')],
    ['a syntax error', driverError('syntax error at or near "x"', '42601')],
    ['a division by zero', driverError('division by zero', '22012')],
    ['55000 of a statement (lastval not yet defined)', driverError('lastval is not yet defined in this session', '55000', { routine: 'lastval' })],
    ['a plain bug', new TypeError('x is not a function')],
    ['a Panel error of another kind', new RecordInvalidError({ base: ['no'] })],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s is not an outage', (_what, error) => {
    expect(databaseUnavailableReason(error)).toBeUndefined();
  });

  it('asDatabaseUnavailable() wraps an outage in a DatabaseUnavailableError keeping the driver\'s error as the cause, and passes anything else through', () => {
    const cause = driverError('terminating connection due to administrator command', '57P01');
    const wrapped = asDatabaseUnavailable(cause);
    expect(wrapped).toBeInstanceOf(DatabaseUnavailableError);
    expect(isPanelError(wrapped, 'PANEL_ERR_DATABASE_UNAVAILABLE')).toBe(true);
    expect((wrapped as DatabaseUnavailableError).reason).toBe('connection');
    expect((wrapped as DatabaseUnavailableError).cause).toBe(cause);
    expect((wrapped as Error).message).toBe('The database is unavailable (connection): 57P01: terminating connection due to administrator command');
    const constraint = driverError('duplicate key', '23505');
    expect(asDatabaseUnavailable(constraint)).toBe(constraint);
    expect(asDatabaseUnavailable(wrapped)).toBe(wrapped);
  });
});

describe('a deadlock or a serialization failure: the transaction was rolled back, the same request may work now', () => {
  it.each([
    ['40P01 deadlock_detected', driverError('deadlock detected', '40P01')],
    ['40001 serialization_failure', driverError('could not serialize access due to concurrent update', '40001')],
  ])('%s → conflict, wrapped in a DatabaseUnavailableError (never a 500)', (_what, error) => {
    expect(databaseUnavailableReason(error)).toBe('conflict');
    const wrapped = asDatabaseUnavailable(error);
    expect(isPanelError(wrapped, 'PANEL_ERR_DATABASE_UNAVAILABLE')).toBe(true);
    expect((wrapped as DatabaseUnavailableError).reason).toBe('conflict');
    expect((wrapped as DatabaseUnavailableError).cause).toBe(error);
  });
});
