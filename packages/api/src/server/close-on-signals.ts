import { PanelConfigError } from '@panel/core';

// Ctrl-C reaches every process of the terminal's foreground group: a runner such as tsx gets it
// and passes it on to the server it started, which then sees it twice. A server that closes only
// on the first signal exits at the second one before its database is closed, and PGlite, killed
// so, skips 32 ids per sequence at the next start. Here every signal after the first is ignored,
// and the close has a bound instead.

/** What `closeOnSignals` closes: the server first (its requests in flight end), then the database. */
export interface CloseOnSignalsOptions {
  readonly app: { close(): Promise<unknown> };
  readonly database?: { close(): Promise<void> };
  /** Milliseconds the close may take before the process exits with status 1 anyway. Default 15000 (the database's query timeout, 12 s, and time to answer). */
  readonly timeoutMillis?: number;
  /** The signals that close. Default SIGINT and SIGTERM. */
  readonly signals?: readonly NodeJS.Signals[];
}

/**
 * The default bound on a close, in milliseconds: longer than the database's default query timeout
 * (12 s), so that a request waiting on a frozen server gets its 503 before the process exits.
 */
export const CLOSE_TIMEOUT_MILLIS = 15_000;

/**
 * Closes the server, then the database, on SIGINT or SIGTERM, and exits with status 0 (1 when
 * the close fails or outlasts `timeoutMillis`, with a line on standard error saying which).
 * Signals that arrive while it closes are ignored. Returns a function that removes the listeners.
 *
 * @example
 * const address = await app.listen({ port: 3000 });
 * closeOnSignals({ app, database });
 */
export function closeOnSignals(options: CloseOnSignalsOptions): () => void {
  const { app, database } = options;
  const timeoutMillis = options.timeoutMillis ?? CLOSE_TIMEOUT_MILLIS;
  // NaN or a negative bound would fire at once, cutting every request in flight at the first signal.
  if (!Number.isInteger(timeoutMillis) || timeoutMillis < 1) {
    throw new PanelConfigError(`closeOnSignals: timeoutMillis must be a positive whole number of milliseconds, instead got ${String(timeoutMillis)}. Fix: leave it out for ${CLOSE_TIMEOUT_MILLIS}, or pass how long in-flight requests may take to finish.`);
  }
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    setTimeout(() => {
      console.error(`Panel: closing on ${signal} took more than ${timeoutMillis} ms; exiting before the server and the database closed. Fix: find the request or connection that holds it, or give closeOnSignals a longer timeoutMillis.`);
      process.exit(1);
    }, timeoutMillis).unref();
    app
      .close()
      .then(() => database?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`Panel: closing on ${signal} failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
  };
  for (const signal of signals) process.on(signal, close);
  return () => {
    for (const signal of signals) process.off(signal, close);
  };
}
