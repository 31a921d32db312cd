import type { EditionB } from './edition-b.js';
import { withEntityTagForm } from '@panel/api';
import { SIGNED_SEGMENT } from './edition-b-names.js';
import { checkFileSignature } from '../signed-urls/signed-file-url.js';


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

/** A signed URL's parts: what precedes `/signed/`, the sealed key, the encoded filename, the query. */
const SIGNED_PATH = new RegExp(`^(.*)/${SIGNED_SEGMENT}/([^/?]+)/([^/?]+)(?:\\?(.*))?$`);

/**
 * A file named in a write's `<field>_remove` as a token actor was given it: a signed URL
 * (`…/signed/<sealed key>/<filename>?expires=…&signature=…`) whose signature holds and has not
 * expired becomes the standard URL of the file it seals (`…/<key>/<filename>`), which the
 * attachments service matches by its key. Anything else is left as sent: a filename, a standard
 * URL, a sealed path without its query, and a signed URL that is expired, forged or of a key this
 * panel did not seal — so it names no file, and the 422 echoes it as sent (never the key it seals).
 */
export function storedFileName(name: string, edition: EditionB, now = new Date()): string {
  const match = SIGNED_PATH.exec(name);
  if (!match) return name;
  const [, base, sealed, encodedName, query] = match as unknown as [string, string, string, string, string | undefined];
  const blobKey = edition.openBlobKey(sealed);
  if (blobKey === undefined || query === undefined) return name;
  let filename: string;
  try {
    filename = decodeURIComponent(encodedName);
  } catch {
    return name;
  }
  const params = new URLSearchParams(query);
  const check = checkFileSignature(edition.signingKey(), blobKey, filename, params.get('expires') ?? undefined, params.get('signature') ?? undefined, now);
  return check === 'valid' ? `${base}/${blobKey}/${encodedName}` : name;
}
