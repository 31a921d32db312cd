/**
 * Where the database reports what happens outside any request (a pooled connection lost, a
 * server shutting down). Fastify's logger (`app.log`, pino) fits; so does `console`-like code
 * with `warn(details, message)`.
 */
export interface DatabaseLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/** The default: one line on standard error per event, with the PostgreSQL code. */
export const consoleDatabaseLogger: DatabaseLogger = {
  warn(details, message) {
    console.warn(`${message} ${JSON.stringify(details)}`);
  },
};
