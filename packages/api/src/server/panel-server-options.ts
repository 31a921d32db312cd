import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PanelConfigError } from '@panel/core';
import { errorReply } from '../errors/error-reply.js';
import { NOSNIFF } from './nosniff.js';
import { requestIdFor } from './request-id.js';
import { REDACTED_LOG_PATHS, requestLogSerializers } from './request-log-serializers.js';
import { TEXT_KEY_PARAM_LENGTH } from '../mount/key-length-warning.js';

/** The server settings `panelServerOptions()` takes, each with a default. */
export interface PanelServerOptionsInput {
  /**
   * `false` (default) for no logs, `true` for Fastify's JSON logs at `info` with the redaction
   * and serializers below, or pino options merged over them (`{ level: 'warn' }`).
   */
  logger?: boolean | Record<string, unknown>;
  /** Milliseconds to receive a whole request, headers and body (Node's `requestTimeout`). Default 30000. */
  requestTimeout?: number;
  /** Milliseconds to receive the request headers (Node's `headersTimeout`). Default 10000. */
  headersTimeout?: number;
  /** Milliseconds a socket may stay silent before it is closed (Fastify's `connectionTimeout`). Default 90000. */
  connectionTimeout?: number;
  /** Milliseconds an idle keep-alive socket is kept open (Fastify's `keepAliveTimeout`). Default 72000. */
  keepAliveTimeout?: number;
  /** How often Node checks the request and headers timeouts, in milliseconds. Default 1000. */
  connectionsCheckingInterval?: number;
}

/** The defaults of `panelServerOptions()`; see `PanelServerOptionsInput`. */
export const PANEL_SERVER_DEFAULTS: Readonly<Required<Omit<PanelServerOptionsInput, 'logger'>>> = Object.freeze({
  requestTimeout: 30_000,
  headersTimeout: 10_000,
  connectionTimeout: 90_000,
  keepAliveTimeout: 72_000,
  connectionsCheckingInterval: 1_000,
});

/** What `panelServerOptions()` returns: options for `Fastify(...)`. */
export interface PanelServerOptions {
  readonly requestTimeout: number;
  readonly connectionTimeout: number;
  readonly keepAliveTimeout: number;
  readonly http: { readonly headersTimeout: number; readonly requestTimeout: number; readonly connectionsCheckingInterval: number };
  readonly requestIdHeader: false;
  readonly genReqId: typeof requestIdFor;
  readonly return503OnClosing: true;
  readonly logger: false | Record<string, unknown>;
  readonly frameworkErrors: typeof answerFrameworkError;
  readonly routerOptions: { readonly maxParamLength: number };
}

/**
 * The answer to an error Fastify raises before any route runs (a URL that cannot be decoded,
 * `/comments/%ff`; a parameter longer than the router takes), through the one error table
 * (`errorReply`): 404 `{ "error": "Not Found" }`, like any id that names no record, instead
 * of Fastify's own body with its internal code.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const answer = errorReply(error);
  if (answer.status >= 500) request.log.error({ err: error }, 'Request failed before routing');
  return reply.code(answer.status).headers({ ...answer.headers, ...NOSNIFF }).type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Recommended options for the Fastify server that mounts Panel API. `mountPanelApi` is a
 * plugin and cannot set server options, so pass these to `Fastify()`:
 * - timeouts, so a slow or silent client is cut and others keep being served: the whole
 *   request within 30 s, headers within 10 s, a silent socket after 90 s, idle keep-alive
 *   sockets after 72 s (longer than the 60 s idle timeout of common load balancers);
 * - a request id per request: the client's `X-Request-Id` when well formed, else a UUID, in
 *   every log line (`reqId`) and, under the mount, in the answer's `X-Request-Id`;
 * - a URL Fastify cannot decode (`%ff`) answered like an unusable id, 404 `{ "error": "Not Found" }`
 *   (`frameworkErrors`: `answerFrameworkError`);
 * - a path parameter as long as a text key may be (`routerOptions.maxParamLength`, 3000: 1000
 *   characters, each percent-encoded), where Fastify's default 100 answers a longer `:id` 414;
 * - logs (when `logger` is on) that never hold `Authorization`, `Cookie`, `Set-Cookie`, a
 *   password or a query-string token.
 *
 * @example
 * const app = Fastify(panelServerOptions({ logger: true }));
 * await app.register(mountPanelApi, { panel });
 */
export function panelServerOptions(input: PanelServerOptionsInput = {}): PanelServerOptions {
  const settings = { ...PANEL_SERVER_DEFAULTS, ...definedOnly(input) };
  for (const [name, value] of Object.entries(settings)) {
    if (!Number.isInteger(value) || (value as number) < 0) {
      throw new PanelConfigError(`panelServerOptions: ${name} must be a whole number of milliseconds (0 turns it off), instead got ${JSON.stringify(value)}. Fix: leave it out for the default ${PANEL_SERVER_DEFAULTS[name as keyof typeof PANEL_SERVER_DEFAULTS]}.`);
    }
  }
  const { logger } = input;
  return {
    requestTimeout: settings.requestTimeout,
    connectionTimeout: settings.connectionTimeout,
    keepAliveTimeout: settings.keepAliveTimeout,
    // Node refuses a headers timeout longer than the request timeout; 0 there means "no request timeout".
    http: {
      headersTimeout: settings.requestTimeout === 0 ? settings.headersTimeout : Math.min(settings.headersTimeout, settings.requestTimeout),
      requestTimeout: settings.requestTimeout,
      connectionsCheckingInterval: settings.connectionsCheckingInterval,
    },
    requestIdHeader: false,
    genReqId: requestIdFor,
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
    routerOptions: { maxParamLength: TEXT_KEY_PARAM_LENGTH },
    logger: logger === undefined || logger === false ? false : {
      level: 'info',
      redact: { paths: [...REDACTED_LOG_PATHS], censor: '[redacted]' },
      serializers: requestLogSerializers,
      ...(logger === true ? {} : logger),
    },
  };
}

function definedOnly(input: PanelServerOptionsInput): Partial<Omit<PanelServerOptionsInput, 'logger'>> {
  const { logger: _logger, ...timeouts } = input;
  return Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined));
}

/**
 * Logs a warning at boot when the server has no request timeout (Fastify's default), which
 * lets a client that sends its body slowly hold a connection forever.
 */
export function warnWithoutRequestTimeout(app: FastifyInstance, log: FastifyBaseLogger = app.log): void {
  // Fastify keeps requestTimeout in initialConfig without declaring it in the type.
  if ((app.initialConfig as { requestTimeout?: number }).requestTimeout === 0) {
    log.warn('Panel API: the server has no requestTimeout, so slow clients can hold connections open forever. Fix: Fastify(panelServerOptions()) or set requestTimeout (30000 is a sane value).');
  }
}
