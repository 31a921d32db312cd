/** Whether a file is shown in the browser (`inline`) or saved (`attachment`). */
export type Disposition = 'inline' | 'attachment';

/**
 * Images are shown inline; everything else is offered as a download. SVG counts as a
 * document, not an image, since it can carry scripts that would run on the panel's origin.
 */
export function dispositionFor(contentType: string): Disposition {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('image/') && type !== 'image/svg+xml' ? 'inline' : 'attachment';
}

/** RFC 5987 `attr-char` encoding: UTF-8 bytes, every byte but the `attr-char`s percent-encoded. */
const encodeExtValue = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A `Content-Disposition` value (RFC 6266): the disposition, a plain `filename` for old
 * clients (non-ASCII, quotes, backslashes and `%` replaced by `_`), and `filename*` with the
 * exact name in UTF-8 (RFC 5987), which current clients prefer.
 *
 * @example
 * contentDisposition('inline', 'café.png'); // inline; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png
 */
export function contentDisposition(disposition: Disposition, filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}
