// "A config mistake fails at startup with a message naming the option, the value and the fix":
// the database mistakes a newcomer makes first, read from the driver's error however it is wrapped.
import { describe, expect, it } from 'vitest';
import { databaseSetupProblem } from '@panel/core';

const driverError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('databaseSetupProblem: one line naming the fix for a setup mistake', () => {
  it('a missing database names it and the createdb command', () => {
    expect(databaseSetupProblem(driverError('3D000', 'database "shop_dev" does not exist'))).toBe(
      'Database "shop_dev" does not exist on the PostgreSQL server DATABASE_URL names. Fix: createdb shop_dev (or CREATE DATABASE shop_dev; as a superuser), or point DATABASE_URL at an existing database.',
    );
  });

  it('a refused connection names the address and the embedded alternative', () => {
    expect(databaseSetupProblem(driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5433'))).toMatch(/^Nothing answers at 127\.0\.0\.1:5433: .* or unset DATABASE_URL to use the embedded PGlite\.$/);
  });

  it('a host that does not resolve says to correct the host', () => {
    expect(databaseSetupProblem(driverError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'))).toBe('The host of DATABASE_URL cannot be resolved (getaddrinfo ENOTFOUND db.internal). Fix: correct the host in DATABASE_URL.');
    expect(databaseSetupProblem(driverError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db'))).toMatch(/cannot be resolved/);
  });

  it('a refused login names the user when PostgreSQL does, and never a password', () => {
    const problem = databaseSetupProblem(driverError('28P01', 'password authentication failed for user "shop"'))!;
    expect(problem).toMatch(/^PostgreSQL refused the login of user "shop"/);
    expect(problem).toContain('createuser --pwprompt shop');
    expect(databaseSetupProblem(driverError('28000', 'no pg_hba.conf entry'))).toMatch(/^PostgreSQL refused the login \(no pg_hba\.conf entry\)\..*createuser --pwprompt <user>\.$/);
  });

  it('a missing table says the migrations have not run', () => {
    expect(databaseSetupProblem(driverError('42P01', 'relation "panel_blobs" does not exist'))).toMatch(/^The table panel_blobs does not exist: its migration has not run on this database\./);
  });

  it('finds the driver\'s error inside a cause chain or an AggregateError (Node\'s happy-eyeballs connect)', () => {
    const wrapped = Object.assign(new Error('outer'), { code: 'PANEL_ERR_DATABASE_UNAVAILABLE', cause: driverError('3D000', 'database "x" does not exist') });
    expect(databaseSetupProblem(wrapped)).toMatch(/^Database "x" does not exist/);
    const aggregate = new AggregateError([driverError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'), driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')], 'connect failed');
    expect(databaseSetupProblem(aggregate)).toMatch(/^Nothing answers at ::1:5432/);
  });

  it('is undefined for anything that is not a setup mistake: a constraint, a timeout, a plain error, nothing', () => {
    for (const error of [driverError('23505', 'duplicate key'), driverError('57014', 'canceling statement due to statement timeout'), new Error('boom'), null, undefined, 'text']) {
      expect(databaseSetupProblem(error), String(error)).toBeUndefined();
    }
  });

  it('does not walk a cause chain forever', () => {
    const loop: { code?: string; cause?: unknown } = { code: 'PANEL_X' };
    loop.cause = loop;
    expect(databaseSetupProblem(loop)).toBeUndefined();
  });
});
