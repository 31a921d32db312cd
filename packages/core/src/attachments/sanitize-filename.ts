/** The longest filename a blob keeps, in characters. */
export const MAX_FILENAME_LENGTH = 255;

/**
 * The filename a blob keeps, made safe as Active Storage makes it: NFC-normalized, with path
 * separators, control characters, the bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E,
 * U+200F, U+061C: "invoice\u202Efdp.exe" would show as "invoiceexe.pdf") and the characters
 * Windows refuses (`<>:"/\|?*`) each replaced by `-`, and surrounding blanks trimmed. A name
 * that ends up empty, `.` or `..`, or longer than 255 characters, is refused with a `TypeError`.
 */
export function sanitizeFilename(filename: unknown): string {
  if (typeof filename !== 'string') throw new TypeError(`filename must be a string such as "cover.png", instead got ${JSON.stringify(filename) ?? String(filename)}.`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a filename must not keep.
  const clean = filename.normalize('NFC').replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069<>:"/\\|?*]/g, '-').trim();
  if (clean === '' || clean === '.' || clean === '..') throw new TypeError(`filename must name a file, such as "cover.png", instead got ${JSON.stringify(filename)}.`);
  if ([...clean].length > MAX_FILENAME_LENGTH) throw new TypeError(`filename must be at most ${MAX_FILENAME_LENGTH} characters, instead got ${[...clean].length}.`);
  return clean;
}

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/**
 * A content type as a blob keeps it (`image/png`, `text/plain; charset=utf-8`); default
 * `application/octet-stream`. `name` is what the refusal calls it: the option's name by
 * default, the wire's where a client sent it (a file part's `Content-Type`, `content_type`).
 */
export function checkedContentType(contentType: unknown, name = 'contentType'): string {
  if (contentType === undefined || contentType === null || contentType === '') return 'application/octet-stream';
  if (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType.trim()) || contentType.length > 255) {
    throw new TypeError(`${name} must be a media type such as "image/png", instead got ${JSON.stringify(contentType)}.`);
  }
  return contentType.trim();
}
