import type { FastifyRequest } from 'fastify';
import type { Panel } from '@panel/core';
import { sessionCookieName } from '../session/session-cookie.js';
import type { OpenApiObject } from './openapi-options.js';

/**
 * Whether a request carries a credential: an `Authorization` header, a header, query parameter
 * or cookie an `apiKey` security scheme of the mount names, or the panel session's cookie. Such
 * a request reads its actor's document; any other reads the one every actor reads.
 */
export function carriesCredentials(schemes: readonly OpenApiObject[], panel: Panel): (request: FastifyRequest) => boolean {
  const named = (place: string) => schemes.filter((scheme) => scheme.type === 'apiKey' && scheme.in === place).map((scheme) => String(scheme.name).toLowerCase());
  const headers = named('header');
  const queries = named('query');
  const cookies = named('cookie');
  return (request) => {
    if (request.headers.authorization !== undefined || headers.some((name) => request.headers[name] !== undefined)) return true;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const sent = request.cookies ?? {};
    const cookieNames = Object.keys(sent).map((name) => name.toLowerCase());
    if (queries.some((name) => Object.keys(query).some((key) => key.toLowerCase() === name)) || cookies.some((name) => cookieNames.includes(name))) return true;
    return panel.sessions !== null && panel.sessions !== undefined && sent[sessionCookieName(panel, request)] !== undefined;
  };
}
