import { Writable } from 'node:stream';
import Fastify, { type InjectOptions } from 'fastify';
import { expect, it } from 'vitest';
import { mountPanelApi, panelServerOptions } from '@panel/api';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** Every line the demo's logger wrote, as text and parsed. */
const logText: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logText.push(chunk.toString());
    done();
  },
});
const logLines = () => logText.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

const POSTS = '/api/resources/v1/blog_posts';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeOnEachDatabase('request hygiene', (demo) => {
  it('"an unsupported Content-Encoding → 415 JSON" (a body sent as gzip is not read as plain JSON); identity is accepted', async () => {
    const body = JSON.stringify({ blog_post: { title: 'not really gzip', author_id: 1 } });
    const gzip = await demo().app.inject({ method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: body });
    expect(gzip.statusCode).toBe(415);
    expect(gzip.json()).toEqual({ error: 'Unsupported Content-Encoding "gzip": send the body uncompressed (no Content-Encoding, or identity)' });
    const deflate = await demo().app.inject({ method: 'PATCH', url: `${POSTS}/1`, headers: { ...ADMIN, 'content-type': 'application/json', 'content-encoding': 'deflate, br' }, payload: body });
    expect(deflate.statusCode).toBe(415);
    const identity = await demo().app.inject({ method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json', 'content-encoding': 'identity' }, payload: body });
    expect(identity.statusCode).toBe(201);
  });

  it('"every response under the mount — Node\'s own early errors aside — is JSON", whatever went wrong', async () => {
    const requests: [string, InjectOptions][] = [
      ['unknown path', { method: 'GET', url: '/api/nowhere' }],
      ['unknown method', { method: 'OPTIONS', url: POSTS }],
      ['no credentials', { method: 'GET', url: POSTS }],
      ['bad credentials', { method: 'GET', url: POSTS, headers: { authorization: 'ApiKey nope' } }],
      ['missing record', { method: 'GET', url: `${POSTS}/999999`, headers: ADMIN }],
      ['bad query', { method: 'GET', url: `${POSTS}?page=0`, headers: ADMIN }],
      ['malformed JSON', { method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: '{"blog_post":' }],
      ['not JSON', { method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'text/plain' }, payload: 'hello' }],
      ['too large', { method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: `{"blog_post":{"title":"${'x'.repeat(1024 * 1024 + 1)}"}}` }],
      ['compressed', { method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{}' }],
      ['invalid values', { method: 'POST', url: POSTS, headers: { ...ADMIN, 'content-type': 'application/json' }, payload: { blog_post: { title: 42 } } }],
      ['liveness', { method: 'GET', url: '/api/health' }],
      ['readiness', { method: 'GET', url: '/api/health/ready' }],
      ['index', { method: 'GET', url: POSTS, headers: ADMIN }],
    ];
    for (const [what, request] of requests) {
      const response = await demo().app.inject(request);
      expect(String(response.headers['content-type']), `${what} (${response.statusCode})`).toMatch(/^application\/json/);
      expect(() => response.json(), what).not.toThrow();
      expect(response.statusCode, what).toBeLessThan(500);
    }
  });

  it('"a request id (x-request-id, echoed or generated)" on every answer: a well-formed id is kept, a malformed one replaced by a UUID', async () => {
    const echoed = await demo().app.inject({ method: 'GET', url: POSTS, headers: { ...ADMIN, 'x-request-id': 'lb-7f3a:trace/42' } });
    expect(echoed.headers['x-request-id']).toBe('lb-7f3a:trace/42');
    const generated = await demo().app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(String(generated.headers['x-request-id'])).toMatch(UUID);
    for (const bad of ['has space', 'x'.repeat(129), 'line\u0001break', '']) {
      const replaced = await demo().app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
      expect(String(replaced.headers['x-request-id']), JSON.stringify(bad)).toMatch(UUID);
    }
  });

  it('"structured logs with the request id, status, duration and the credential\'s identity — never a secret, a password or an Authorization header" (read from the real log output)', async () => {
    logText.length = 0;
    const secrets = { key: 'demo-admin-key', password: 'hunter2-correct-horse', cookie: 'panel_session=sealed-cookie-value', queryToken: 'query-token-1234' };
    await demo().app.inject({ method: 'GET', url: `${POSTS}?page=1&api_key=${secrets.queryToken}`, headers: { ...ADMIN, cookie: secrets.cookie, 'x-request-id': 'redaction-check-1' } });
    await demo().app.inject({ method: 'POST', url: '/api/resources/v1/users', headers: { ...ADMIN, 'content-type': 'application/json', 'x-request-id': 'redaction-check-2' }, payload: { user: { name: 'Log Test', email: 'log-test@example.com', password: secrets.password } } });
    await demo().app.inject({ method: 'GET', url: POSTS, headers: { authorization: 'ApiKey wrong-key-5678', 'x-request-id': 'redaction-check-3' } });
    const text = logText.join('');
    for (const secret of [...Object.values(secrets), 'wrong-key-5678', 'sealed-cookie-value']) expect(text, secret).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
    const lines = logLines();
    const ofRequest = (id: string) => lines.filter((line) => line.reqId === id);
    const completed = ofRequest('redaction-check-1').find((line) => line.msg === 'request completed');
    expect(completed).toMatchObject({ level: 30, reqId: 'redaction-check-1', userId: 1, res: { statusCode: 200 } });
    expect(typeof completed!.responseTime).toBe('number');
    const incoming = ofRequest('redaction-check-1').find((line) => line.msg === 'incoming request');
    expect(incoming).toMatchObject({ req: { method: 'GET', url: `${POSTS}?page=1&api_key=[redacted]` } });
    expect(ofRequest('redaction-check-2').find((line) => line.msg === 'request completed')).toMatchObject({ userId: 1 });
    const refused = ofRequest('redaction-check-3').find((line) => line.msg === 'request completed');
    expect(refused).toMatchObject({ res: { statusCode: 401 } });
    expect(refused).not.toHaveProperty('userId');
    // Every line logged while serving a request carries its id.
    expect(lines.filter((line) => line.req !== undefined || line.res !== undefined).every((line) => typeof line.reqId === 'string')).toBe(true);
  });

  it('warns at boot, in the logs, when the server has no requestTimeout (Fastify\'s default), and not with panelServerOptions()', async () => {
    const bare = Fastify({ logger: { stream: logStream } });
    logText.length = 0;
    await bare.register(mountPanelApi, { panel: demo().panel, at: 'other-api' });
    await bare.ready();
    expect(logLines().some((line) => line.level === 40 && String(line.msg).includes('no requestTimeout'))).toBe(true);
    await bare.close();
    const recommended = Fastify(panelServerOptions({ logger: { stream: logStream } }));
    logText.length = 0;
    await recommended.register(mountPanelApi, { panel: demo().panel, at: 'other-api' });
    await recommended.ready();
    expect(logLines().some((line) => String(line.msg).includes('no requestTimeout'))).toBe(false);
    await recommended.close();
  });
}, { logger: { stream: logStream } });
