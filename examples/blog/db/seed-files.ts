import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { blobChecksum, operations, type Panel, type StorageService } from '@panel/core';

/** The posts that get a cover and two attachments: every sixth (6, 12 … 60). */
export const POSTS_WITH_FILES: readonly number[] = Object.freeze(Array.from({ length: 10 }, (_, i) => (i + 1) * 6));

/** The profiles that get an avatar: Ada's (profile 1). */
export const PROFILES_WITH_AVATAR: readonly number[] = Object.freeze([1]);

/**
 * A fixed blob key per seeded file, so that a fresh database gets the same URLs every time and
 * a restart over the same `storage/` folder rewrites the same files instead of adding more.
 */
export const seedKey = (name: string): string => createHash('sha256').update(`panel-demo-seed/${name}`).digest('hex').slice(0, 32);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small PNG of one colour (8-bit RGB), made here so the seed needs no image files. */
export function solidPng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const colourOf = (n: number): [number, number, number] => [(n * 53) % 256, (n * 97) % 256, (n * 151) % 256];

/** One of the demo's seeded files: what `panel.attachments.attach` is given. */
export interface SeedFile {
  readonly resource: string;
  readonly id: number;
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Buffer;
  readonly key: string;
}

/**
 * The demo's files: a cover (PNG) and two attachments (a text note and a sketch with a
 * non-ASCII name) on every sixth post, and an avatar on Ada's profile. Same bytes and keys on
 * every fresh database.
 */
export function seedFileList(): SeedFile[] {
  const files: SeedFile[] = [];
  for (const id of POSTS_WITH_FILES) {
    const n = String(id).padStart(2, '0');
    files.push({ resource: 'BlogPost', id, field: 'cover', filename: `cover-${n}.png`, contentType: 'image/png', bytes: solidPng(16, 9, colourOf(id)), key: seedKey(`post-${id}-cover`) });
    files.push({ resource: 'BlogPost', id, field: 'attachments', filename: `notes-${n}.txt`, contentType: 'text/plain; charset=utf-8', bytes: Buffer.from(`Notes for post ${id}.\n`), key: seedKey(`post-${id}-notes`) });
    files.push({ resource: 'BlogPost', id, field: 'attachments', filename: `sketch ${n} – draft.png`, contentType: 'image/png', bytes: solidPng(4, 4, colourOf(id + 1)), key: seedKey(`post-${id}-sketch`) });
  }
  for (const id of PROFILES_WITH_AVATAR) {
    files.push({ resource: 'Profile', id, field: 'avatar', filename: `avatar-${id}.png`, contentType: 'image/png', bytes: solidPng(8, 8, colourOf(100 + id)), key: seedKey(`profile-${id}-avatar`) });
  }
  return files;
}

/** The owner of the seed's uploads (`panel.uploads`): the seed attaches only its own. */
const SEED_UPLOADER = 'seed';

/**
 * Attaches the demo's files as a client does, through the one upload service: each file is
 * received as an upload (its type judged from its bytes), then named in an update of its
 * record (`{ cover: "<upload id>" }`, `{ attachments: ["<upload id>"] }`). The seed acts as the
 * system: no policy, scope or actor.
 */
export async function seedFiles(panel: Panel): Promise<void> {
  for (const file of seedFileList()) {
    const { resource, id, field, filename, contentType, bytes, key } = file;
    const upload = await panel.uploads.receive({ owner: SEED_UPLOADER, filename, contentType, stream: Readable.from([bytes]), maxBytes: bytes.length, key });
    const many = panel.resource(resource).fieldsByName.get(field)?.kind.attachments === 'many';
    await operations.update({ panel, resource, id, uploader: SEED_UPLOADER, attributes: { [field]: many ? [upload.id] : upload.id }, authorize: () => undefined, scope: undefined, readable: undefined });
  }
}

/**
 * Writes back the bytes of any seeded file missing from `storage`: a database loaded from the
 * demo's snapshot already holds the blob rows, and the storage folder may be new (another
 * checkout, a deleted `storage/`).
 */
export async function restoreSeedFiles(storage: StorageService): Promise<void> {
  for (const { key, bytes, contentType } of seedFileList()) {
    if (!(await storage.exists(key))) await storage.upload({ key, body: bytes, contentType, checksum: blobChecksum(bytes) });
  }
}
