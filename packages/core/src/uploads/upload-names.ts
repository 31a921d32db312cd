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

/** A declared content type, or the 400 that says what is wrong with it. */
export function uploadContentType(contentType: unknown): string {
  try {
    return checkedContentType(contentType);
  } catch (error) {
    throw new UploadRefusedError((error as Error).message);
  }
}
