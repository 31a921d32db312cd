/**
 * `X-Content-Type-Options: nosniff` on every answer of the API: a browser takes a JSON body for
 * JSON, never for a script or a page it guessed (OWASP Secure Headers).
 */
export const NOSNIFF: Readonly<Record<string, string>> = Object.freeze({ 'x-content-type-options': 'nosniff' });
