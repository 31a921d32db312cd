import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileNotFoundError, PanelConfigError, StorageError } from '../errors/panel-errors.js';
import { blobChecksum } from './blob-checksum.js';
import { isBlobKey } from './blob-key.js';
import type { StorageService, UploadInput } from './storage-service.js';

/** Options of `diskStorage`. */
export interface DiskStorageOptions {
  /** The folder that holds the files; relative paths are taken from the current directory. */
  root: string;
}

/** The disk service, with the folder it resolved. */
export interface DiskStorageService extends StorageService {
  readonly root: string;
}

function checkedKey(key: string): string {
  if (!isBlobKey(key)) throw new TypeError(`Storage key must be 16 to 64 lower-case letters and digits, instead got ${JSON.stringify(key)}.`);
  return key;
}

const isMissing = (error: unknown) => (error as { code?: unknown })?.code === 'ENOENT';

/**
 * The file system's errors that say the disk cannot take or give bytes now (full, over quota,
 * read-only, failing, out of file handles, refused, its folder gone from under the app), not
 * that the request is wrong: the storage is unavailable (the API's 503).
 */
const UNAVAILABLE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'ENOTDIR', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY']);

/** `error` as `StorageError` (reason `unavailable`, the fs error as its cause) when it is one of `UNAVAILABLE_CODES`, else itself. */
function unavailableDisk(error: unknown, what: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !UNAVAILABLE_CODES.has(code)) return error;
  return new StorageError(`diskStorage: ${what} failed: ${(error as Error).message}`, { cause: error, reason: 'unavailable' });
}

/**
 * The default storage service: files under a folder (`<current directory>/storage` by default), spread
 * over two levels of sub-folders by the key's first four characters, as Active Storage's disk
 * service does (`storage/ab/cd/abcd…`). Writes go to a temporary file renamed into place, so a
 * reader never sees half a file. Right for one machine; for several, use `s3Storage`.
 *
 * @example
 * const storage = diskStorage({ root: process.env.STORAGE_DIR ?? './storage' });
 */
export function diskStorage(options: DiskStorageOptions): DiskStorageService {
  if (typeof options?.root !== 'string' || options.root === '') {
    throw new PanelConfigError('diskStorage: root must be the path of a folder, such as "./storage". Fix: pass diskStorage({ root }).');
  }
  const root = resolve(options.root);
  const pathOf = (key: string) => join(root, key.slice(0, 2), key.slice(2, 4), checkedKey(key));

  return Object.freeze({
    name: 'disk',
    root,
    async upload({ key, body, checksum }: UploadInput): Promise<void> {
      const path = pathOf(key);
      const streamed = body instanceof Readable;
      if (!streamed && blobChecksum(body) !== checksum) throw new StorageError(`The bytes for key "${key}" do not match their checksum; nothing was stored.`);
      await mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
        throw unavailableDisk(error, `storing key "${key}"`);
      });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        if (streamed) {
          // The stream's digest is known at its end only: checked before the file is renamed into place.
          const md5 = createHash('md5');
          const digesting = new Transform({ transform: (chunk, _encoding, done) => done(null, md5.update(chunk) && chunk) });
          await pipeline(body, digesting, createWriteStream(temporary, { flags: 'wx' }));
          if (md5.digest('base64') !== checksum) throw new StorageError(`The bytes for key "${key}" do not match their checksum; nothing was stored.`);
        } else {
          await writeFile(temporary, body, { flag: 'wx' });
        }
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        throw unavailableDisk(error, `storing key "${key}"`);
      }
    },
    async download(key: string): Promise<Readable> {
      try {
        const handle = await open(pathOf(key), 'r');
        return handle.createReadStream();
      } catch (error) {
        if (isMissing(error)) throw new FileNotFoundError(key);
        throw unavailableDisk(error, `reading key "${key}"`);
      }
    },
    async delete(key: string): Promise<void> {
      await rm(pathOf(key), { force: true }).catch((error: unknown) => {
        throw unavailableDisk(error, `deleting key "${key}"`);
      });
    },
    async exists(key: string): Promise<boolean> {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw unavailableDisk(error, `finding key "${key}"`);
      }
    },
  });
}
