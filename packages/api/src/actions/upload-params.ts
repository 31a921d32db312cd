import { BadRequestError } from '../errors/api-errors.js';

/**
 * A direct upload's JSON body: `{ "filename", "content_type", "byte_size", "checksum" }` (the
 * checksum is the MD5 of the bytes, base64). A body of another shape is a 400; the values' own
 * checks are the upload service's (400 too, 413 for a size over the limit).
 */
export function directUploadParams(body: unknown): { filename: string; contentType: string; byteSize: number; checksum: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestError('Send the file as multipart/form-data with a part named "file", or JSON { "filename", "content_type", "byte_size", "checksum" } for a direct upload');
  }
  const { filename, content_type, byte_size, checksum } = body as Record<string, unknown>;
  return { filename: filename as string, contentType: content_type as string, byteSize: byte_size as number, checksum: checksum as string };
}
