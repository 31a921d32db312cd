/** The panel page where a signed-in user types their password again (sudo mode): `<rootPath>/confirm`. */
export function confirmPath(rootPath: string): string {
  return `${rootPath === '/' ? '' : rootPath}/confirm`;
}

/** The panel's sign-in page: `<rootPath>/login`. */
export function signInPath(rootPath: string): string {
  return `${rootPath === '/' ? '' : rootPath}/login`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Where to go back after signing in or confirming: `target` when it is a path of this site
 * (one leading `/`, no scheme, no `//` or `/\` that a browser would take for another host),
 * else `fallback`. Characters outside printable ASCII are percent-encoded (a `Location`
 * header carries only those, and an encoded look-alike of `/` or `.` — `／`, `∕`, `。` — is
 * never read as one); a path that is not Unicode text is refused.
 */
export function safeReturnPath(target: unknown, fallback: string): string {
  if (typeof target !== 'string' || target.length > 2048 || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a return path with a control character is refused.
  if (/[\u0000-\u001f\u007f\\]/.test(target) || LONE_SURROGATE.test(target)) return fallback;
  return target.replace(/[^\u0021-\u007e]/gu, (character) => encodeURIComponent(character));
}
