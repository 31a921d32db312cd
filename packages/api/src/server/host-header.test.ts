import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { isValidHost, refuseMalformedHost } from './host-header.js';

describe('isValidHost ("Host = uri-host [ \\":\\" port ]", RFC 9110 §7.2 with RFC 3986 §3.2.2)', () => {
  it('takes a reg-name, an IPv4 address or a bracketed IPv6 address, each with an optional port', () => {
    for (const host of ['localhost', 'panel.example', 'panel.example:8080', '127.0.0.1', '127.0.0.1:3000', '[::1]', '[::1]:3000', '[2001:db8::7]:443', 'xn--caf-dma.example', 'a%41b', 'localhost:']) {
      expect(isValidHost(host), host).toBe(true);
    }
  });

  it('refuses an empty host, a path, a query, a fragment, user info, spaces, non-ASCII, an unclosed or zoned IP literal and a port over 65535', () => {
    for (const host of ['', ':', ':80', '[::1', '[', '::1', 'a b', 'a/b', 'a?b', 'a#b', 'a@b', '\u00e9', '%zz', '[::1]:80x', 'x:99999', 'x:000080', '[fe80::1%eth0]', '[v1.x]', '[127.0.0.1]', 'a:1:2']) {
      expect(isValidHost(host), JSON.stringify(host)).toBe(false);
    }
  });
});

describe('refuseMalformedHost', () => {
  it('leaves an HTTP/1.0 request without a Host alone (a load balancer\'s health check sends one): RFC 9112 §3.2 asks a Host of HTTP/1.1 requests only', async () => {
    const app = Fastify();
    refuseMalformedHost(app, '/panel');
    app.get('/ready', async () => ({ status: 'ok' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const send = (head: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString('latin1')));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
          socket.write(head);
        });
      expect(await send('GET /ready HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
      expect(await send('GET /ready HTTP/1.0\r\nHost: a b\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    } finally {
      await app.close();
    }
  });
});
