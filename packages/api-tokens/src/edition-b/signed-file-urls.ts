import type { EditionB } from './edition-b.js';
import { withEntityTagForm } from '@panel/api';
import { SIGNED_SEGMENT } from './edition-b-names.js';


interface FileJson {
  readonly filename: string;
  readonly url: string;
}

function signOne(file: FileJson, edition: EditionB, now: Date): FileJson {
  // The standard URL ends in /<key>/<encoded filename>; the signed one is /signed/<sealed key>/<encoded filename>.
  const match = /^(.*)\/([^/]+)\/([^/]+)$/.exec(file.url);
  if (!match) return file;
  const [, base, blobKey, encodedName] = match as unknown as [string, string, string, string];
  const path = `${base}/${SIGNED_SEGMENT}/${edition.sealBlobKey(blobKey)}/${encodedName}`;
  // The ETag hashes the file with its signed path (the sealed key is the same on every answer), not the rotating query.
  return withEntityTagForm({ ...file, url: edition.signFileUrl(path, blobKey, file.filename, now) }, { ...file, url: path });
}

/**
 * A file field's JSON (`{ filename, content_type, byte_size, url }`, null, or an array of them)
 * with each `url` turned into a signed one that expires after `signedUrlTtlSeconds` (Edition B,
 * token actors).
 */
export function signFileUrls(json: unknown, edition: EditionB, now = new Date()): unknown {
  const sign = (value: unknown) => (value && typeof value === 'object' && typeof (value as FileJson).url === 'string' ? signOne(value as FileJson, edition, now) : value);
  return Array.isArray(json) ? json.map(sign) : sign(json);
}

/** A signed URL's parts: what precedes `/signed/`, the sealed key, the encoded filename (its query left out). */
const SIGNED_PATH = new RegExp(`^(.*)/${SIGNED_SEGMENT}/([^/?]+)/([^/?]+)(?:\\?.*)?$`);

/**
 * A file named in a write's `<field>_remove` as a token actor was given it: a signed URL
 * (`…/signed/<sealed key>/<filename>?expires=…&signature=…`) becomes the standard URL of the file
 * it seals (`…/<key>/<filename>`), which the attachments service matches by its key; anything
 * else (a filename, a standard URL, a sealed key this panel did not seal) is left as sent. Its
 * signature and expiry are not checked: the URL only names a file of the record the token may
 * update, as the filename would.
 */
export function storedFileName(name: string, edition: EditionB): string {
  const match = SIGNED_PATH.exec(name);
  if (!match) return name;
  const [, base, sealed, encodedName] = match as unknown as [string, string, string, string];
  const blobKey = edition.openBlobKey(sealed);
  return blobKey === undefined ? name : `${base}/${blobKey}/${encodedName}`;
}

