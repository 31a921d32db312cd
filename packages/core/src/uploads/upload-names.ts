import { checkedContentType, sanitizeFilename } from '../attachments/sanitize-filename.js';
import { UploadRefusedError } from '../errors/panel-errors.js';

/** A filename as a blob keeps it, or the 400 that says what is wrong with it. */
export function uploadFilename(filename: unknown): string {
  try {
    return sanitizeFilename(filename);
  } catch (error) {
    throw new UploadRefusedError((error as Error).message);
  }
}

/** What a refusal calls the content type of a multipart file part (`ReceiveUploadInput.contentTypeName`). */
export const FILE_PART_CONTENT_TYPE = "The file part's Content-Type";

/** A declared content type, or the 400 that says what is wrong with it, calling it as the client sent it (`name`). */
export function uploadContentType(contentType: unknown, name: string): string {
  try {
    return checkedContentType(contentType, name);
  } catch (error) {
    throw new UploadRefusedError((error as Error).message);
  }
}
