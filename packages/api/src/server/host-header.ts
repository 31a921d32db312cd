import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequestError } from '../errors/api-errors.js';
import { errorReply, sendErrorReply } from '../errors/error-reply.js';
import { NOSNIFF } from './nosniff.js';

// RFC 3986 §3.2.2: a reg-name (an IPv4 address is one too) is unreserved characters, sub-delims and percent-encodings.
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;
// RFC 9110 §4.2.1 with RFC 3986 §3.2: uri-host [ ":" port ], port being digits (an empty port is the scheme's default).
const HOST_AND_PORT = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d*))?$/;

/** The last value found valid: a server's clients send one or a few hosts, so most requests skip the patterns. */
let lastValidHost: string | undefined;

/** Whether `value` is a Host field value a URL can be built from: `uri-host [":" port]`, the host not empty. */
export function isValidHost(value: string): boolean {
  if (value === lastValidHost) return true;
  const valid = hostIsValid(value);
  if (valid) lastValidHost = value;
  return valid;
}

function hostIsValid(value: string): boolean {
  const parts = HOST_AND_PORT.exec(value);
  if (!parts) return false;
  const [, host = '', port = ''] = parts;
  if (port !== '' && (port.length > 5 || Number(port) > 65_535)) return false;
  // An IP literal: IPv6 between brackets, without a zone (Node's isIPv6 takes `fe80::1%eth0`; IPvFuture is not served).
  if (host.startsWith('[')) return /^[0-9A-Fa-f:.]+$/.test(host.slice(1, -1)) && isIPv6(host.slice(1, -1));
  return REG_NAME.test(host);
}

/** How many `Host` field lines the request carries as sent (Node keeps the first one only). */
function hostLines(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count += 1;
  return count;
}

/**
 * Why the request's authority cannot be read, undefined when it can: more than one `Host` line,
 * or a `Host` (or, under `trustProxy`, the `X-Forwarded-Host` Fastify reads instead) that is
 * not `host[:port]`. A request without a `Host` (HTTP/1.0) is left alone: Node already refuses
 * an HTTP/1.1 request without one.
 */
export function hostProblem(request: FastifyRequest): string | undefined {
  if (hostLines(request) > 1) return 'More than one Host header: send exactly one';
  const sent = request.headers.host;
  if (sent !== undefined && !isValidHost(sent)) return 'The Host header is not a valid host[:port]';
  // Fastify's `request.host` is X-Forwarded-Host's last entry when the proxy is trusted.
  // Without a Host (HTTP/1.0, a load balancer's health check) Fastify's `request.host` is '': nothing to judge.
  if (request.host !== sent && request.host !== '' && request.host !== undefined && !isValidHost(request.host)) return 'The X-Forwarded-Host header is not a valid host[:port]';
  return undefined;
}

/**
 * Refuses, on every route of `app` (the API, the panel's pages, the file URLs, the 404), a
 * request whose `Host` is malformed, with 400 `{ "error": "<what is wrong>" }` through the one
 * error table, before any route reads it. RFC 9112 §3.2: "A server MUST respond with a 400 (Bad
 * Request) status code to any HTTP/1.1 request message that lacks a Host header field and to any
 * request message that contains more than one Host header field line or a Host header field with
 * an invalid field value." Without it, code that builds the request's URL from its Host (the
 * reference page did) throws on `Host: [::1`.
 */
export function refuseMalformedHost(app: FastifyInstance, rootPath: string): void {
  // A callback hook: every request of the app runs it.
  app.addHook('onRequest', (request, reply, done) => {
    const problem = hostProblem(request);
    if (problem === undefined) return done();
    sendErrorReply(reply.headers(NOSNIFF), errorReply(new BadRequestError(problem), { rootPath }), { rootPath });
  });
}
