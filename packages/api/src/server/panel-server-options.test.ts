import type { IncomingMessage } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { PANEL_SERVER_DEFAULTS, panelServerOptions } from './panel-server-options.js';
import { requestIdFor } from './request-id.js';
import { loggedUrl } from './request-log-serializers.js';

describe('panelServerOptions()', () => {
  it('recommends timeouts for every phase of a request: 30 s for the request, 10 s for headers, 90 s of silence, 72 s of keep-alive', () => {
    const options = panelServerOptions();
    expect(options).toMatchObject({ requestTimeout: 30_000, connectionTimeout: 90_000, keepAliveTimeout: 72_000, http: { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 }, logger: false, return503OnClosing: true });
    expect(PANEL_SERVER_DEFAULTS.requestTimeout).toBe(30_000);
  });

  it('are what the Fastify server uses', async () => {
    const app = Fastify(panelServerOptions({ requestTimeout: 5_000, headersTimeout: 2_000 }));
    await app.ready();
    expect(app.server.requestTimeout).toBe(5_000);
    expect(app.server.headersTimeout).toBe(2_000);
    expect(app.server.keepAliveTimeout).toBe(72_000);
    expect(app.server.timeout).toBe(90_000);
    await app.close();
  });

  it('keep the headers timeout within the request timeout, as Node requires', () => {
    expect(panelServerOptions({ requestTimeout: 3_000, headersTimeout: 10_000 }).http.headersTimeout).toBe(3_000);
  });

  it('refuse a timeout that is not a whole number of milliseconds', () => {
    expect(() => panelServerOptions({ requestTimeout: -1 })).toThrow('panelServerOptions: requestTimeout must be a whole number of milliseconds (0 turns it off), instead got -1. Fix: leave it out for the default 30000.');
  });
});

describe('request ids', () => {
  const request = (id?: string) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as unknown as IncomingMessage;

  it('keep a well-formed X-Request-Id and replace anything else with a UUID', () => {
    expect(requestIdFor(request('3f2c9a1e-0000-4000-8000-000000000000'))).toBe('3f2c9a1e-0000-4000-8000-000000000000');
    expect(requestIdFor(request('Root=1-67891233-abcdef012345678912345678'))).toBe('Root=1-67891233-abcdef012345678912345678');
    for (const bad of [undefined, '', 'two words', 'a'.repeat(129), 'x\ny']) expect(requestIdFor(request(bad))).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('loggedUrl()', () => {
  it('keeps the path and the API\'s own query parameters, and redacts every other value', () => {
    expect(loggedUrl('/api/resources/v1/books')).toBe('/api/resources/v1/books');
    expect(loggedUrl('/api/resources/v1/books?page=2&per_page=5&sort_by=title&sort_direction=desc')).toBe('/api/resources/v1/books?page=2&per_page=5&sort_by=title&sort_direction=desc');
    expect(loggedUrl('/api/x?token=s3cret&page=1&api%5Fkey=k')).toBe('/api/x?token=[redacted]&page=1&api%5Fkey=[redacted]');
  });
});
