import { PanelConfigError, isPanelError } from '../errors/panel-errors.js';

/** The PostgreSQL error of a failed connection or statement, as `pg` reports it. */
interface DriverError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

/** The driver's own error under Panel's wrappers (a `DatabaseUnavailableError`'s cause, pg-pool's AggregateError). */
function driverError(error: unknown): DriverError | undefined {
  let current = error as DriverError | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (typeof current.code === 'string' && !current.code.startsWith('PANEL_')) return current;
    current = (Array.isArray(current.errors) && current.errors.length > 0 ? current.errors[0] : current.cause) as DriverError | undefined;
  }
  return undefined;
}

const quoted = (message: string, pattern: RegExp) => pattern.exec(message)?.[1];

/**
 * What is wrong with the app's database setup, in one line with the command that fixes it, when
 * `error` is one of the mistakes made while setting an app up: a database that does not exist
 * (`createdb shop`), a server that refuses connections, a wrong user or password, a pooler that
 * refuses a startup parameter Panel sends, a table whose migration has not run, a PGlite folder
 * another process holds. Undefined for any other error.
 *
 * @example
 * databaseSetupProblem(error) // 'Database "shop" does not exist on the PostgreSQL server. Fix: createdb shop …'
 */
export function databaseSetupProblem(error: unknown): string | undefined {
  // Already one line with its fix: a PGlite folder another process holds.
  if (isPanelError(error, 'PANEL_ERR_PGLITE_FOLDER_IN_USE')) return error.message;
  const driver = driverError(error);
  if (!driver) return uncodedProblem(error);
  const code = driver.code as string;
  const message = typeof driver.message === 'string' ? driver.message : '';
  if (code === '3D000') {
    const name = quoted(message, /database "([^"]+)" does not exist/) ?? '<name>';
    return `Database "${name}" does not exist on the PostgreSQL server DATABASE_URL names. Fix: createdb ${name} (or CREATE DATABASE ${name}; as a superuser), or point DATABASE_URL at an existing database.`;
  }
  if (code === 'ECONNREFUSED') {
    const address = quoted(message, /ECONNREFUSED (\S+)/) ?? 'the address DATABASE_URL names';
    return `Nothing answers at ${address}: the PostgreSQL server DATABASE_URL names is not running there. Fix: start PostgreSQL (or correct the host and port in DATABASE_URL), or unset DATABASE_URL to use the embedded PGlite.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `The host of DATABASE_URL cannot be resolved (${message}). Fix: correct the host in DATABASE_URL.`;
  }
  if (code === '28P01' || code === '28000') {
    const user = quoted(message, /for user "([^"]+)"/);
    return `PostgreSQL refused the login${user ? ` of user "${user}"` : ''} (${message}). Fix: correct the user and password in DATABASE_URL (postgres://user:password@host:5432/database), or create the role: createuser --pwprompt ${user ?? '<user>'}.`;
  }
  if (code === '08P01') {
    // PgBouncer refuses the startup parameters it does not track: Panel sends two of them.
    const parameter = quoted(message, /unsupported startup parameter: ([A-Za-z_]+)/);
    const sent = parameter === 'statement_timeout' ? 'for statementTimeoutMillis' : parameter === 'options' ? 'for schema (-c search_path=<schema>)' : undefined;
    if (sent === undefined) return undefined;
    const setting = parameter === 'statement_timeout' ? "statement_timeout = '<statementTimeoutMillis>ms' (10000 by default)" : 'search_path = <schema>';
    return `The connection pooler at DATABASE_URL (such as PgBouncer) refused the startup parameter ${parameter}, which Panel sends ${sent}. Fix: add ${parameter} to the pooler's ignore_startup_parameters and give the app's role the same setting on the PostgreSQL server (ALTER ROLE <user> SET ${setting}), or point DATABASE_URL at PostgreSQL itself.`;
  }
  if (code === '53300') {
    return `The PostgreSQL server DATABASE_URL names has no connection left (${message}). Fix: raise the server's max_connections, or lower openDatabase's maxConnections (10 by default) times the number of processes, or put a pooler such as PgBouncer in front of the server.`;
  }
  if (code === '42P01') {
    const table = quoted(message, /relation "([^"]+)" does not exist/) ?? '<table>';
    return `The table ${table} does not exist: its migration has not run on this database. Fix: run the app's migrations first (await runMigrations(database, migrations) at boot, before createPanel).`;
  }
  return undefined;
}

/** The messages of `error` and of its causes, outermost first (pg reports these without a code). */
function messagesOf(error: unknown): string[] {
  const messages: string[] = [];
  let current = error as DriverError | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (typeof current.message === 'string') messages.push(current.message);
    current = (Array.isArray(current.errors) && current.errors.length > 0 ? current.errors[0] : current.cause) as DriverError | undefined;
  }
  return messages;
}

/** The setup mistakes the driver reports without a code: TLS asked of a server without it, a server that never answers. */
function uncodedProblem(error: unknown): string | undefined {
  const messages = messagesOf(error);
  if (messages.some((m) => /^The server does not support SSL connections$/.test(m))) {
    return 'The PostgreSQL server DATABASE_URL names does not accept TLS connections, and DATABASE_URL asks for TLS (sslmode). Fix: remove sslmode from DATABASE_URL (or set sslmode=disable) for a server without TLS, or turn TLS on in the server (ssl = on in postgresql.conf).';
  }
  if (messages.some((m) => /^(Connection terminated due to connection timeout|timeout exceeded when trying to connect)$/i.test(m))) {
    return "PostgreSQL did not answer within openDatabase's connectionTimeoutMillis (5000 by default): the server DATABASE_URL names is frozen, or a firewall drops the traffic. Fix: check that the server runs and is reachable from here (the host and port in DATABASE_URL), or raise connectionTimeoutMillis for a slow network.";
  }
  return undefined;
}

/** `error` as a one-line `PanelConfigError` naming the fix when it is a setup mistake (see `databaseSetupProblem`), else `error` itself. */
export function withDatabaseSetupFix(error: unknown): unknown {
  const problem = databaseSetupProblem(error);
  if (problem === undefined) return error;
  const config = new PanelConfigError(problem);
  config.cause = error;
  return config;
}
