import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { FileNotFoundError, PanelConfigError, StorageError } from '../errors/panel-errors.js';
import { blobChecksum } from './blob-checksum.js';
import { isBlobKey } from './blob-key.js';
import { presignS3Request, sha256Hex, signS3Request, type S3Credentials } from './s3-signature.js';
import type { DirectUploadInput, DirectUploadTarget, StorageService, UploadInput } from './storage-service.js';
import { timedBody, Watchdog, WATCHDOG } from './s3-watchdog.js';

/** Options of `s3Storage`. */
export interface S3StorageOptions extends S3Credentials {
  readonly bucket: string;
  /** The signing region, such as `eu-west-1`; S3-compatible stores often accept `us-east-1`. */
  readonly region: string;
  /** The store's base URL; default `https://s3.<region>.amazonaws.com`. */
  readonly endpoint?: string;
  /**
   * Put the bucket in the path (`<endpoint>/<bucket>/<key>`) instead of the host name
   * (`<bucket>.<endpoint host>/<key>`). Most self-hosted stores want `true`. Default false.
   */
  readonly forcePathStyle?: boolean;
  /** The `fetch` to use; default the global one. */
  readonly fetch?: typeof fetch;
  /**
   * How long a request may wait on the store without progress, in milliseconds: connecting,
   * each part of a body sent, the answer, each part of a download read. Past it the request
   * fails with `StorageError` (reason `unavailable`: the API's 503). Default 10000.
   */
  readonly timeoutMillis?: number;
}

/** How long a request to the store may wait without progress by default (`timeoutMillis`). */
export const DEFAULT_S3_TIMEOUT_MILLIS = 10_000;

/** The S3 service, with where it sends requests. */
export interface S3StorageService extends StorageService {
  readonly bucket: string;
  /** The URL of the object under `key` (not signed; the store answers it only to signed requests). */
  objectUrl(key: string): URL;
}

const EMPTY_SHA256 = sha256Hex('');

function required(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new PanelConfigError(`s3Storage: ${name} is required, instead got ${JSON.stringify(value)}. Fix: pass s3Storage({ bucket, region, accessKeyId, secretAccessKey, endpoint? }).`);
  }
  return value;
}

function checkedKey(key: string): string {
  if (!isBlobKey(key)) throw new TypeError(`Storage key must be 16 to 64 lower-case letters and digits, instead got ${JSON.stringify(key)}.`);
  return key;
}

/** The `<Code>` of an S3 error body, for messages. */
async function errorCode(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? response.statusText;
}

/**
 * A storage service over S3 or any S3-compatible object store (MinIO, Ceph, R2, …), for apps
 * that run on several machines. Requests are signed with AWS Signature Version 4 by
 * node:crypto and sent with `fetch`; no SDK. Objects are named by their blob key, uploaded
 * with `Content-MD5` so the store refuses damaged bytes, and streamed on download.
 *
 * @example
 * const storage = s3Storage({
 *   bucket: 'panel-files',
 *   region: 'eu-west-1',
 *   accessKeyId: process.env.S3_ACCESS_KEY_ID!,
 *   secretAccessKey: process.env.S3_SECRET_ACCESS_KEY!,
 * });
 */
export function s3Storage(options: S3StorageOptions): S3StorageService {
  const bucket = required('bucket', options?.bucket);
  const region = required('region', options.region);
  const credentials: S3Credentials = {
    accessKeyId: required('accessKeyId', options.accessKeyId),
    secretAccessKey: required('secretAccessKey', options.secretAccessKey),
    sessionToken: options.sessionToken,
  };
  let endpoint: URL;
  try {
    endpoint = new URL(options.endpoint ?? `https://s3.${region}.amazonaws.com`);
  } catch {
    throw new PanelConfigError(`s3Storage: endpoint must be a URL such as "http://127.0.0.1:9000", instead got ${JSON.stringify(options.endpoint)}.`);
  }
  const timeoutMillis = options.timeoutMillis ?? DEFAULT_S3_TIMEOUT_MILLIS;
  if (!Number.isInteger(timeoutMillis) || timeoutMillis < 1) {
    throw new PanelConfigError(`s3Storage: timeoutMillis must be a positive whole number of milliseconds, instead got ${JSON.stringify(timeoutMillis)}. Fix: leave it out for ${DEFAULT_S3_TIMEOUT_MILLIS}.`);
  }
  const pathStyle = options.forcePathStyle === true;
  const send = options.fetch ?? fetch;
  const base = endpoint.pathname.replace(/\/+$/, '');

  const objectUrl = (key: string): URL => {
    const url = new URL(endpoint);
    if (pathStyle) {
      url.pathname = `${base}/${encodeURIComponent(bucket)}/${checkedKey(key)}`;
    } else {
      url.hostname = `${bucket}.${endpoint.hostname}`;
      url.pathname = `${base}/${checkedKey(key)}`;
    }
    return url;
  };

  /**
   * Sends one request under a watchdog: it fails when the store makes no progress for
   * `timeoutMillis` (connecting, taking the body, answering). Answers the response and the
   * watchdog, still running for a download's body (`timedBody`), stopped otherwise.
   */
  const request = async (method: string, key: string, init: { body?: Uint8Array | Readable; headers?: Record<string, string>; streamAnswer?: boolean } = {}): Promise<Response> => {
    const url = objectUrl(key);
    // A streamed body is not hashed ahead: its integrity is `Content-MD5`'s, as S3 allows over TLS.
    const payloadSha256 = init.body instanceof Readable ? 'UNSIGNED-PAYLOAD' : init.body ? sha256Hex(init.body) : EMPTY_SHA256;
    const headers = signS3Request({ method, url, headers: init.headers, payloadSha256, region, credentials });
    const watch = new Watchdog(timeoutMillis);
    try {
      // Each part of a streamed body the store takes is progress.
      const body = init.body instanceof Readable ? pipeline(init.body, new Transform({ transform: (chunk, _encoding, done) => done(null, watch.touch() ?? chunk) }), () => undefined) : init.body;
      const streamed = body instanceof Readable ? { body: Readable.toWeb(body), duplex: 'half' } : body ? { body } : {};
      const response = await send(url, { method, headers, signal: watch.signal, ...streamed } as RequestInit);
      if (init.streamAnswer && response.ok && response.body) return Object.assign(response, { [WATCHDOG]: watch });
      watch.stop();
      return response;
    } catch (error) {
      watch.stop();
      const detail = watch.fired ? `no progress within ${timeoutMillis} ms (timeoutMillis)` : (error as Error).message;
      throw new StorageError(`s3Storage: ${method} ${url.href} failed: ${detail}`, { cause: error, reason: 'unavailable' });
    }
  };

  // A server error of the store (500, 503 SlowDown…) may pass; a refusal (403, 400) will not by itself.
  const failure = async (method: string, key: string, response: Response) =>
    new StorageError(`s3Storage: ${method} of key "${key}" in bucket "${bucket}" answered ${response.status} ${await errorCode(response)}.`, response.status >= 500 ? { reason: 'unavailable' } : undefined);

  return Object.freeze({
    name: 's3',
    bucket,
    objectUrl,
    async upload({ key, body, byteSize, contentType, checksum }: UploadInput): Promise<void> {
      const streamed = body instanceof Readable;
      if (streamed && (byteSize === undefined || !Number.isSafeInteger(byteSize) || byteSize < 0)) throw new TypeError(`s3Storage: a streamed upload needs its byteSize, instead got ${JSON.stringify(byteSize)}.`);
      if (!streamed && blobChecksum(body) !== checksum) throw new StorageError(`The bytes for key "${key}" do not match their checksum; nothing was stored.`);
      const length: Record<string, string> = streamed ? { 'content-length': String(byteSize) } : {};
      // A stream's digest is known at its end: taken on the way, so that a store that does not check `Content-MD5` is caught too.
      const md5 = streamed ? createHash('md5') : undefined;
      // `pipeline` passes an error of the source on to what is sent (a client that went away fails the PUT).
      const sent = md5 ? pipeline(body as Readable, new Transform({ transform: (chunk, _encoding, done) => done(null, md5.update(chunk) && chunk) }), () => undefined) : body;
      const response = await request('PUT', key, { body: sent, headers: { 'content-type': contentType, 'content-md5': checksum, ...length } });
      if (!response.ok) throw await failure('PUT', key, response);
      await response.body?.cancel();
      if (md5 && md5.digest('base64') !== checksum) {
        await request('DELETE', key).then((r) => r.body?.cancel(), () => undefined);
        throw new StorageError(`The bytes for key "${key}" do not match their checksum; nothing was stored.`);
      }
    },
    async download(key: string): Promise<Readable> {
      const response = await request('GET', key, { streamAnswer: true });
      if (response.status === 404) {
        await response.body?.cancel();
        throw new FileNotFoundError(key);
      }
      if (!response.ok || !response.body) throw await failure('GET', key, response);
      return timedBody(response.body as NodeReadableStream<Uint8Array>, (response as Response & { [WATCHDOG]: Watchdog })[WATCHDOG], `s3Storage: GET of key "${key}" in bucket "${bucket}"`);
    },
    async delete(key: string): Promise<void> {
      const response = await request('DELETE', key);
      if (!response.ok && response.status !== 404) throw await failure('DELETE', key, response);
      await response.body?.cancel();
    },
    directUpload({ key, contentType, checksum, byteSize, expiresInSeconds }: DirectUploadInput): DirectUploadTarget {
      const headers = { 'content-type': contentType, 'content-md5': checksum, 'content-length': String(byteSize) };
      const url = presignS3Request({ method: 'PUT', url: objectUrl(key), headers, expiresInSeconds, region, credentials });
      return { url: url.href, headers: { 'Content-Type': contentType, 'Content-MD5': checksum, 'Content-Length': String(byteSize) } };
    },
    async exists(key: string): Promise<boolean> {
      const response = await request('HEAD', key);
      await response.body?.cancel();
      if (response.status === 404) return false;
      if (!response.ok) throw new StorageError(`s3Storage: HEAD of key "${key}" in bucket "${bucket}" answered ${response.status} ${response.statusText}.`, response.status >= 500 ? { reason: 'unavailable' } : undefined);
      return true;
    },
  });
}
