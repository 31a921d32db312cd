import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';
import { essence } from './accepted-type.js';

/** How many bytes of a file's beginning its type is judged from (what `file-type` reads at most for its signatures). */
export const SNIFF_BYTES = 4100;

/** Declared types that may be taken for a file whose bytes have no signature, if they are text (no NUL, valid UTF-8). */
const TEXT_TYPES = /^(text\/[a-z0-9.+-]+|application\/(json|xml|javascript|ld\+json|x-ndjson|yaml|x-yaml|csv)|image\/svg\+xml)$/;

/**
 * The media type of a file, judged from its first bytes (at most `SNIFF_BYTES`): the type its
 * magic number says (`file-type`'s signatures: images, documents, archives, executables, media),
 * whatever the client declared; for bytes with no signature, the declared type when it is a text
 * type and the bytes are text, else `application/octet-stream`. A renamed executable declared
 * as `image/png` is therefore `application/x-msdownload` (or `application/x-elf`), never an image.
 *
 * @example
 * await sniffContentType(head, 'image/png'); // 'image/png' when head starts with \x89PNG
 */
export async function sniffContentType(head: Uint8Array, declared: string): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  const text = head.length === 0 || (!head.includes(0) && isUtf8(trimPartialCharacter(head)));
  if (text && TEXT_TYPES.test(essence(declared))) return declared;
  return text && head.length > 0 ? 'text/plain' : 'application/octet-stream';
}

/** The head without a last UTF-8 character cut in the middle (the head ends where `SNIFF_BYTES` cut it). */
function trimPartialCharacter(head: Uint8Array): Uint8Array {
  let end = head.length;
  // Up to three continuation bytes may be missing from the last character.
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = head[end - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte >= 0xc0) end -= back;
    break;
  }
  return head.subarray(0, end);
}
