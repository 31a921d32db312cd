import { PanelConfigError } from '../errors/panel-errors.js';

/**
 * `url` with its secrets replaced by `…`: the userinfo (`user:password@`) and the query-string
 * values of `password`, `sslpassword` and `sslkey`, so that a message naming the URL never
 * carries a password to a log. Works on a string that is not a URL at all.
 *
 * @example
 * urlWithoutSecrets('postgres://shop:s3cr3t@db:5432/shop') // 'postgres://…@db:5432/shop'
 */
export function urlWithoutSecrets(url: string): string {
  const at = url.lastIndexOf('@');
  const slashes = url.indexOf('//');
  const start = slashes >= 0 && slashes < at ? slashes + 2 : 0;
  const withoutUser = at >= 0 ? `${url.slice(0, start)}…${url.slice(at)}` : url;
  return withoutUser.replace(/([?&](?:ssl)?(?:password|key)=)[^&#]*/gi, '$1…');
}

/**
 * Refuses, at `openDatabase`, a PostgreSQL URL that the driver could not read (a port past
 * 65535, a port that is not a number): read as `pg` reads it (spaces and stray `%` encoded first,
 * then a URL with or without a host). Without this check the first query fails with Node's
 * `TypeError: Invalid URL`, naming neither the option nor the fix.
 */
export function checkDatabaseUrl(url: string): void {
  const encoded = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url) ? encodeURI(url).replace(/%25(\d\d)/g, '%$1') : url;
  for (const candidate of [encoded, encoded.replace('@/', '@___DUMMY___/')]) {
    try {
      new URL(candidate, 'postgres://base');
      return;
    } catch {
      // Tried again with a host, as pg does.
    }
  }
  throw new PanelConfigError(`Database url cannot be read as a PostgreSQL URL: "${urlWithoutSecrets(url)}". Fix: set DATABASE_URL to postgres://user:password@host:5432/database (a port from 1 to 65535; a password with @, : or / percent-encoded).`);
}
