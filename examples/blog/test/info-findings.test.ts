// Issue 42, item 15 (the pass's info findings) through real HTTP on the demo, on both databases:
// "no PostgreSQL text in any body" (a value its column cannot hold is the field's own 422
// message), and "Secure cookies behind a TLS-terminating proxy via Fastify's trustProxy": not
// trusted by default, said once in the log with the fix when a proxy speaks of HTTPS.
// (One idempotency namespace per anonymous client: packages/api/test/public-idempotency-keys.test.ts.)
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDemoApp } from '../src/build-app.js';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const JSON_TYPE = { 'content-type': 'application/json' };
/** Words of PostgreSQL's messages that must never reach a client. */
const POSTGRES_TEXT = /overflow|precision|character varying|out of range for type|SQLSTATE|violates|relation "/i;

const extraApps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of extraApps.splice(0)) await app.close();
});

describeOnEachDatabase('the pass\'s info findings', (demo) => {
  const post = (payload: unknown) => demo().app.inject({ method: 'POST', url: '/api/resources/v1/products', headers: { ...ADMIN, ...JSON_TYPE }, payload: JSON.stringify(payload) });

  it('"no PostgreSQL text in any body": a price beyond numeric(10, 2) is 422 on price in the field\'s words (it was `numeric field overflow` on base)', async () => {
    const response = await post({ product: { name: 'Too dear', price: 1e9 } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ price: ['is out of range'] });
    expect(response.body).not.toMatch(POSTGRES_TEXT);
  });

  it('"Secure cookies behind a TLS-terminating proxy via trustProxy": untrusted, X-Forwarded-Proto: https leaves the cookie plain and logs the fix once; trusted, the cookie is Secure', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const untrusted = await buildDemoApp({ database: demo().database, logger: { level: 'warn', stream } });
    extraApps.push(untrusted.app);
    const login = () =>
      untrusted.app.inject({ method: 'POST', url: '/panel/login', remoteAddress: '10.9.0.1', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' }, payload: 'email=ada%40example.com&password=demo-password' });
    const first = await login();
    expect(first.statusCode).toBe(303);
    expect(first.cookies.find((c) => c.name === 'panel_session')?.secure).toBeFalsy();
    await login();
    const warnings = lines.filter((line) => line.includes('X-Forwarded-Proto: https'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Fix: behind a TLS-terminating proxy you run, create Fastify with trustProxy');
    // The same request behind a trusted proxy: Secure, with the __Host- prefix.
    const trusted = await buildDemoApp({ database: demo().database, trustProxy: true });
    extraApps.push(trusted.app);
    const secure = await trusted.app.inject({ method: 'POST', url: '/panel/login', remoteAddress: '10.9.0.2', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' }, payload: 'email=ada%40example.com&password=demo-password' });
    expect(secure.cookies.find((c) => c.name === '__Host-panel_session')?.secure).toBe(true);
  });
});
