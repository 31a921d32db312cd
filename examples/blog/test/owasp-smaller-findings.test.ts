import { expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** The panel's clock in these tests: moved by hand, never by sleeping. */
const clock = { now: Date.parse('2026-11-23T08:00:00.000Z') };
const MINUTE = 60 * 1000;
const nextDay = () => (clock.now += 24 * 60 * MINUTE);

const form = (fields: Record<string, string>, headers: Record<string, string> = {}): Pick<InjectOptions, 'payload' | 'headers'> => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
});

describeOnEachDatabase('the smaller findings of the OWASP API Top 10 pass (issue point 4)', (demo) => {
  const app = () => demo().app;
  const signIn = (email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    app().inject({ method: 'POST', url: '/panel/login', remoteAddress, ...form({ email, password }, headers) });

  it('"the reference page serves its own assets only": every other docs/* path is the API\'s JSON 404, with no wildcard CORS', async () => {
    for (const path of ['openapi.json', 'openapi.yaml', 'anything', 'js/other.js']) {
      const response = await app().inject({ method: 'GET', url: `/api/resources/v1/docs/${path}` });
      expect(response.statusCode, path).toBe(404);
      expect(response.json(), path).toEqual({ error: 'Not Found' });
      expect(response.headers['access-control-allow-origin'], path).toBeUndefined();
    }
    const page = await app().inject({ method: 'GET', url: '/api/resources/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('"an undecodable URL answers like any unusable id": /comments/%ff is 404 {"error":"Not Found"}, with no internal code', async () => {
    for (const url of ['/api/resources/v1/comments/%ff', '/api/resources/v1/comments/%E0%A4%A', `/api/resources/v1/comments/${'9'.repeat(600)}`]) {
      const response = await app().inject({ method: 'GET', url, headers: ADMIN });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ error: 'Not Found' });
      expect(response.body, url).not.toContain('FST_');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
    }
    const unusable = await app().inject({ method: 'GET', url: '/api/resources/v1/comments/abc', headers: ADMIN });
    expect(unusable.statusCode).toBe(404);
  });

  it('"API answers carry X-Content-Type-Options: nosniff": successes, errors, redirects and the document', async () => {
    const requests: InjectOptions[] = [
      { method: 'GET', url: '/api/resources/v1/blog_posts', headers: ADMIN },
      { method: 'GET', url: '/api/resources/v1/blog_posts/999999', headers: ADMIN },
      { method: 'GET', url: '/api/resources/v1/blog_posts' },
      { method: 'GET', url: '/api/resources/v1/blog_posts?page=0', headers: ADMIN },
      { method: 'POST', url: '/api/resources/v1/tags', headers: { authorization: 'ApiKey demo-reader-key', 'content-type': 'application/json' }, payload: { tag: { name: 'x' } } },
      { method: 'GET', url: '/api/resources/v1/openapi.json' },
      { method: 'GET', url: '/api/health' },
      { method: 'GET', url: '/api/nowhere' },
    ];
    for (const request of requests) {
      const response = await app().inject(request);
      expect(response.headers['x-content-type-options'], `${request.method} ${request.url} (${response.statusCode})`).toBe('nosniff');
    }
  });

  it('"a 401 carries WWW-Authenticate naming the scheme(s) the mount accepts": the demo takes an ApiKey in Authorization', async () => {
    for (const headers of [{}, { authorization: 'ApiKey wrong' }, { authorization: 'Bearer nope' }]) {
      const response = await app().inject({ method: 'GET', url: '/api/resources/v1/blog_posts', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('ApiKey realm="/api"');
    }
    expect((await app().inject({ method: 'GET', url: '/api/resources/v1/blog_posts', headers: ADMIN })).headers['www-authenticate']).toBeUndefined();
  });

  it('"sign-in throttling keys on (account, client) … so a stranger cannot lock a user out": five wrong passwords from elsewhere leave Ada\'s own sign-in alone', async () => {
    nextDay();
    for (let i = 1; i <= 5; i += 1) expect((await signIn('ada@example.com', `wrong-${i}`, '203.0.113.66')).statusCode).toBe(401);
    const stranger = await signIn('ada@example.com', 'wrong-6', '203.0.113.66');
    expect(stranger.statusCode).toBe(429);
    expect(stranger.headers['retry-after']).toBe('30');
    expect((await signIn('ada@example.com', 'demo-password', '198.51.100.7')).statusCode).toBe(303);
  });

  it('"with backoff": the guessing client waits 30 s, then 60 s after its next failure; the right password is not checked meanwhile', async () => {
    nextDay();
    for (let i = 1; i <= 5; i += 1) await signIn('rita@example.com', `wrong-${i}`, '203.0.113.67');
    expect((await signIn('rita@example.com', 'demo-password', '203.0.113.67')).statusCode).toBe(429);
    clock.now += 30 * 1000;
    expect((await signIn('rita@example.com', 'wrong-6', '203.0.113.67')).statusCode).toBe(401);
    const next = await signIn('rita@example.com', 'demo-password', '203.0.113.67');
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe('60');
    clock.now += 60 * 1000;
    expect((await signIn('rita@example.com', 'demo-password', '203.0.113.67')).statusCode).toBe(303);
  });

  it('"the sign-in form checks … Origin like every other panel form" (login CSRF): a cross-site post is refused with 403 and opens no session', async () => {
    nextDay();
    const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { referer: 'https://evil.example/login.html' }];
    for (const headers of crossSite) {
      const response = await signIn('ada@example.com', 'demo-password', '198.51.100.8', headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.body).toContain('The form expired');
      expect(response.cookies.find((cookie) => cookie.name === 'panel_session'), JSON.stringify(headers)).toBeUndefined();
    }
    for (const headers of [{ origin: 'http://localhost:80' }, { 'sec-fetch-site': 'same-origin' }, { referer: 'http://localhost:80/panel/login' }, {}] as Record<string, string>[]) {
      const response = await signIn('ada@example.com', 'demo-password', '198.51.100.8', headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(303);
    }
  });
}, { session: { now: () => clock.now } });
