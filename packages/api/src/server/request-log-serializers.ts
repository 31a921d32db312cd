import type { FastifyRequest } from 'fastify';
import { LOGGED_QUERY_PARAMETERS } from '../querying/list-query.js';

/** Paths in a log line that pino replaces with `[redacted]`, for code that logs headers or bodies itself. */
export const REDACTED_LOG_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.password_confirmation',
  '*.token',
  '*.secret',
];

/**
 * The URL as logged: the path, and the query with the values of every parameter but the list
 * modifiers' `logged` ones (`page`, `per_page`, `sort_by`, `sort_direction`) replaced by
 * `[redacted]` (a client may put a token in the query string; filters and `q` carry users' text).
 */
export function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = url.slice(mark + 1).split('&').filter(Boolean).map((pair) => {
    const [name = ''] = pair.split('=', 1);
    return LOGGED_QUERY_PARAMETERS.has(decodeURIComponentSafe(name)) ? pair : `${name}=[redacted]`;
  });
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * pino serializers for Fastify's request lines: the request as method, URL (see `loggedUrl`),
 * host and remote address, never its headers (`Authorization`, `Cookie`) or body.
 */
export const requestLogSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: loggedUrl(request.url), host: request.host, remoteAddress: request.ip };
  },
};
