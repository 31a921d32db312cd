/** The path segment under the panel's root path where attachments are served. */
export const ATTACHMENTS_SEGMENT = 'attachments';

/** Where a panel with that root path serves attachments: `/panel/attachments` for `/panel`. */
export function attachmentsPath(rootPath: string): string {
  return `${rootPath === '/' ? '' : rootPath}/${ATTACHMENTS_SEGMENT}`;
}

/**
 * The standard attachment URL of a blob: `<rootPath>/attachments/<key>/<filename>`, the
 * filename percent-encoded. It is a path (relative to the host), permanent, and neither
 * signed nor expiring: the random key is what keeps it private.
 *
 * @example
 * attachmentUrl('/panel', { key: 'x0fk2l…', filename: 'cover photo.png' });
 * // '/panel/attachments/x0fk2l…/cover%20photo.png'
 */
export function attachmentUrl(rootPath: string, blob: { readonly key: string; readonly filename: string }): string {
  return `${attachmentsPath(rootPath)}/${blob.key}/${encodeURIComponent(blob.filename)}`;
}
