import type { Readable } from 'node:stream';
import { BadRequestError } from '../errors/api-errors.js';

/**
 * The parts of a `multipart/form-data` body, as `request.parts()` or `request.file()` read them,
 * with the parser's own failures on a malformed body (no boundary, a part cut short, a part
 * header it cannot read: plain errors with no status) answered as a 400 that says so, never a
 * 500. The parser's refusals that carry a 4xx status (too many parts, a file too large) and
 * Panel's own errors pass unchanged.
 */
export async function* multipartParts<Part>(parts: AsyncIterable<Part>): AsyncGenerator<Part> {
  const iterator = parts[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Part>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw malformedMultipart(error);
    }
    if (next.done) return;
    yield next.value;
  }
}

/** The first part of a multipart body (`request.file()`), with the same 400 for a malformed body. */
export async function firstMultipartPart<Part>(reading: Promise<Part>): Promise<Part> {
  try {
    return await reading;
  } catch (error) {
    throw malformedMultipart(error);
  }
}

function malformedMultipart(error: unknown): unknown {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('PANEL_')) return error;
  return new BadRequestError('The body is not valid multipart/form-data (Fix: send a Content-Type with its boundary, and complete parts)');
}

/**
 * Runs `read` over a file part's stream (`part.file`): when the stream itself failed (the body
 * ended inside the part: the parser destroys the part's stream with its error), the failure is
 * the same 400 as a malformed body; any other failure of `read` (the storage, the database)
 * passes unchanged.
 */
export async function readFilePart<T>(file: Readable, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw file.errored ? malformedMultipart(error) : error;
  }
}
