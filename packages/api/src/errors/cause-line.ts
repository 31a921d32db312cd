import type { FastifyRequest } from 'fastify';
/** Development: `NODE_ENV` unset or `development` (never `production`, nor `test`). */
export function inDevelopment(): boolean {
  const env = process.env.NODE_ENV;
  return env === undefined || env === '' || env === 'development';
}

/**
 * A 500's cause in one readable line for the developer's console: the request, the error's
 * message (the database's own, with its SQLSTATE code), and the first frame of the app's code.
 */
export function causeLine(request: FastifyRequest, error: unknown): string {
  const err = error as { message?: unknown; code?: unknown; stack?: unknown };
  const message = String(err?.message ?? error).split('\n')[0];
  const code = typeof err?.code === 'string' ? ` (${err.code})` : '';
  const frame = typeof err?.stack === 'string' ? err.stack.split('\n').find((line) => /^\s+at /.test(line) && !line.includes('node_modules') && !line.includes('node:') && !/packages\/(core|api)\//.test(line)) : undefined;
  const at = frame ? ` ${frame.trim()}` : '';
  return `Panel API: 500 on ${request.method} ${request.url.split('?')[0]}: ${message}${code}${at}`;
}
