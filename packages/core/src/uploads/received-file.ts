import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UploadTooLargeError } from '../errors/panel-errors.js';
import { SNIFF_BYTES } from './sniff-content-type.js';

/** A file received from a stream into a temporary file: its size, MD5 and first bytes, known without holding it in memory. */
export interface ReceivedFile {
  readonly path: string;
  readonly byteSize: number;
  /** MD5 of the bytes, base64 (`blobChecksum`'s form). */
  readonly checksum: string;
  /** The first `SNIFF_BYTES` bytes, to judge the type from. */
  readonly head: Uint8Array;
  /** Deletes the temporary file (no error when it is gone). */
  discard(): Promise<void>;
}

/**
 * Reads a stream to a temporary file (in `directory`, default the system's), counting,
 * digesting and keeping the first bytes on the way: memory stays at one chunk whatever the
 * file's size. More than `maxBytes` stops the read at once, deletes what was written and
 * throws `UploadTooLargeError`; the stream is left for its owner to drain or close.
 */
export async function receiveFile(input: { stream: Readable; maxBytes: number; directory?: string | undefined; onBytes?: ((byteSize: number) => Promise<void> | void) | undefined }): Promise<ReceivedFile> {
  const { stream, maxBytes } = input;
  const path = join(input.directory ?? tmpdir(), `panel-upload-${randomBytes(12).toString('hex')}.tmp`);
  const discard = () => rm(path, { force: true });
  const md5 = createHash('md5');
  const head: Buffer[] = [];
  let headSize = 0;
  let byteSize = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      byteSize += chunk.length;
      if (byteSize > maxBytes) return done(new UploadTooLargeError(maxBytes));
      md5.update(chunk);
      if (headSize < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headSize));
        headSize += Math.min(chunk.length, SNIFF_BYTES - headSize);
      }
      let told: Promise<void> | void;
      try {
        told = input.onBytes?.(byteSize);
      } catch (error) {
        return done(error as Error);
      }
      if (told === undefined) return done(null, chunk);
      told.then(() => done(null, chunk), (error: unknown) => done(error as Error));
    },
  });
  try {
    await pipeline(stream, counting, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await discard();
    throw error;
  }
  // A multipart parser marks a part cut at its own size limit instead of failing the stream.
  if ((stream as { truncated?: boolean }).truncated === true) {
    await discard();
    throw new UploadTooLargeError(maxBytes);
  }
  return { path, byteSize, checksum: md5.digest('base64'), head: Buffer.concat(head), discard };
}
