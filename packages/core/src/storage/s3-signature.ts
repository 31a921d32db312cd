import { createHash, createHmac } from 'node:crypto';

/** The credentials a request to S3 is signed with. */
export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** For temporary credentials (STS); sent as `x-amz-security-token` and signed. */
  readonly sessionToken?: string | undefined;
}

/** A request to sign: where it goes, its headers besides `host` and `x-amz-*`, the SHA-256 of its body. */
export interface S3RequestToSign {
  readonly method: string;
  readonly url: URL;
  /** Headers to send and sign (`content-type`, `content-md5`, `range`…), any case. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Hex SHA-256 of the body (`sha256Hex(body)`; of the empty string for none). */
  readonly payloadSha256: string;
  readonly region: string;
  readonly credentials: S3Credentials;
  /** The signing time; default now. */
  readonly now?: Date;
}

/** Hex SHA-256, as the signature and `x-amz-content-sha256` want it. */
export const sha256Hex = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

const hmac = (key: Uint8Array | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 percent-encoding of every byte but `A-Z a-z 0-9 - . _ ~`, as SigV4 wants it. */
const encodeRfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The path as S3 canonicalizes it: each segment decoded, then encoded once; the slashes kept. */
function canonicalUri(url: URL): string {
  return url.pathname.split('/').map((segment) => encodeRfc3986(decodeURIComponent(segment))).join('/') || '/';
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/**
 * Signs a request to S3 or an S3-compatible store with AWS Signature Version 4 (header-based),
 * with node:crypto only. Returns the headers to send: the given ones, `x-amz-date`,
 * `x-amz-content-sha256`, `x-amz-security-token` when there is a session token, and
 * `authorization`. `host` is signed but not returned, since `fetch` sets it from the URL.
 *
 * @example
 * const headers = signS3Request({ method: 'GET', url, payloadSha256: sha256Hex(''), region, credentials });
 * await fetch(url, { headers });
 */
export function signS3Request(request: S3RequestToSign): Record<string, string> {
  const now = request.now ?? new Date();
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['x-amz-date'] = amzDate;
  headers['x-amz-content-sha256'] = request.payloadSha256;
  if (request.credentials.sessionToken) headers['x-amz-security-token'] = request.credentials.sessionToken;

  const signed: Record<string, string> = { ...headers, host: request.url.host };
  const names = Object.keys(signed).sort();
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalUri(request.url),
    canonicalQuery(request.url),
    names.map((name) => `${name}:${signed[name]!.trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    request.payloadSha256,
  ].join('\n');
  const scope = `${day}/${request.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(request.credentials.secretAccessKey, day, request.region)).update(stringToSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${request.credentials.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`;
  return headers;
}

/** A request to presign: where it goes, the headers the client must send as they are, and how long the URL works. */
export interface S3RequestToPresign {
  readonly method: string;
  readonly url: URL;
  /** Headers the client sends and the signature covers (`content-type`, `content-md5`, `content-length`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Seconds the URL works, 1 to 604800 (seven days, S3's most). */
  readonly expiresInSeconds: number;
  readonly region: string;
  readonly credentials: S3Credentials;
  /** The signing time; default now. */
  readonly now?: Date;
}

/**
 * Presigns a request to S3 with AWS Signature Version 4 in the query string ("Authenticating
 * Requests: Using Query Parameters"): the URL to send it to, with `X-Amz-Algorithm`,
 * `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders` and
 * `X-Amz-Signature`. The payload is `UNSIGNED-PAYLOAD`; the headers given are signed, so a
 * client that sends other values (another `Content-MD5`, another `Content-Length`) is refused.
 *
 * @example
 * const url = presignS3Request({ method: 'PUT', url: objectUrl, headers: { 'content-type': 'image/png' }, expiresInSeconds: 3600, region, credentials });
 */
export function presignS3Request(request: S3RequestToPresign): URL {
  const now = request.now ?? new Date();
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${request.region}/s3/aws4_request`;
  const signed: Record<string, string> = { host: request.url.host };
  for (const [name, value] of Object.entries(request.headers ?? {})) signed[name.toLowerCase()] = value;
  const names = Object.keys(signed).sort();
  const url = new URL(request.url);
  url.searchParams.set('X-Amz-Algorithm', 'AWS4-HMAC-SHA256');
  url.searchParams.set('X-Amz-Credential', `${request.credentials.accessKeyId}/${scope}`);
  url.searchParams.set('X-Amz-Date', amzDate);
  url.searchParams.set('X-Amz-Expires', String(request.expiresInSeconds));
  if (request.credentials.sessionToken) url.searchParams.set('X-Amz-Security-Token', request.credentials.sessionToken);
  url.searchParams.set('X-Amz-SignedHeaders', names.join(';'));
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalUri(url),
    canonicalQuery(url),
    names.map((name) => `${name}:${signed[name]!.trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  url.searchParams.set('X-Amz-Signature', createHmac('sha256', signingKey(request.credentials.secretAccessKey, day, request.region)).update(stringToSign).digest('hex'));
  return url;
}

/** The SigV4 signing key of a day and region. */
function signingKey(secretAccessKey: string, day: string, region: string): Buffer {
  let key: Buffer = hmac(`AWS4${secretAccessKey}`, day);
  for (const part of [region, 's3', 'aws4_request']) key = hmac(key, part);
  return key;
}
