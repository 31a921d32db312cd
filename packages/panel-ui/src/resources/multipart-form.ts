import { PassThrough, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { FILE_PART_CONTENT_TYPE, fieldMaxBytes, formatBytes, receivedFileProblem, uploadLimit, UploadTooLargeError, secretsEqual, textProblem, type CompiledField, type ErrorMessages, type Panel } from '@panel/core';
import { BadRequestError, multipartParts, readFilePart } from '@panel/api';
import type { FormBody } from '../forms/form-body.js';

/** The most parts one form sends (its fields and files); the longest field value is the form's own limit (`fieldSize`). */
const LIMITS = { parts: 500, fields: 400, files: 20 };

/**
 * A form's text is larger than the screens take (`formBodyLimit`): the 413 page, nothing
 * written. A text value is never cut to fit: saving a cut value would lose what was typed.
 */
export class FormTooLargeError extends Error {
  readonly code = 'PANEL_UI_FORM_TOO_LARGE';

  /** A form (or one of its text values) over `limit` bytes. */
  static ofBytes(limit: number): FormTooLargeError {
    return new FormTooLargeError(`The form is larger than the ${formatBytes(limit)} the panel accepts, so nothing was saved. Go back and shorten what you typed.`);
  }
}

/** The 413 of a form with more parts than `LIMITS` allows, which the parser refuses with its own code; undefined for any other error. */
function tooManyParts(error: unknown): FormTooLargeError | undefined {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'FST_FILES_LIMIT':
      return new FormTooLargeError(`The form sends more than ${LIMITS.files} files, so nothing was saved. Go back and choose at most ${LIMITS.files}, then send the others with a second save.`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new FormTooLargeError(`The form has more than ${LIMITS.fields} fields, so nothing was saved.`);
    default:
      return undefined;
  }
}

/**
 * What reading a multipart form gives: the form, with each received file's upload id under its
 * control's name, and those ids, and the messages of the chosen files the upload service refused
 * as it read them (by field name; none kept), when there were some; or a refusal.
 */
export type MultipartForm = { readonly form: FormBody; readonly received: readonly string[]; readonly refusedFiles: ErrorMessages | undefined } | { readonly refused: 'csrf' };

/** A chosen file's message once the file is left out of the form shown again: the user learns to choose it (or another) again. */
export const notKept = (problem: string): string => `${problem} (the file was not kept)`;

/** What `readMultipartForm` takes besides the panel and the request. */
export interface MultipartFormInput {
  /** The session's CSRF token, which the first part must carry. */
  readonly csrfToken: string;
  /** Whose uploads the received files become (`user:<id>`). */
  readonly owner: string;
  /**
   * Asked once the token is checked, before any other part is read: throws to refuse the write
   * (the record outside the scope, the policy's no), so a refused request stores no bytes; else
   * answers the fields the user may write with this form. Only their file parts are stored.
   * Absent, no file part is stored.
   */
  readonly beforeParts?: (() => Promise<readonly CompiledField[]>) | undefined;
  /** The longest text value a part may carry, in bytes (the screens' `formBodyLimit`): a longer one is `FormTooLargeError`. */
  readonly fieldSize: number;
}

/**
 * Reads a resource form posted as `multipart/form-data` (a form with a file control), part by
 * part: the first part must be `csrf_token` with the session's token, checked before any file is
 * read (anything else: refused, nothing read further or stored); then `beforeParts` may refuse
 * the write, again before anything is read further, and names the fields the user may write.
 * Each file part named `record[<write key>]` of one of those fields that takes files goes to
 * the form's upload batch (`panel.uploads.batch`), streamed, under the field's `maxBytes`, owned
 * by `owner`; its upload id takes its place in the form, as the pending upload a write then
 * attaches, and the files' rows are recorded together once every part is read. An empty file
 * part (no file chosen) is read past without storing anything; so is a file under any other
 * name, and one for a field the user may not write (a forged control changes nothing). A field
 * value with text the database cannot store is a 400 naming it. A chosen file the upload
 * service refuses as it reads it (over its field's `maxBytes`, a filename it cannot take) is read
 * past and kept nowhere; its field's message is in `refusedFiles`, and the other parts are read
 * on. A file past the largest `maxBytes` of any file field is `UploadTooLargeError` (the 413
 * page). When reading fails after files were received (that, a bad field), their bytes are
 * removed before the error goes on.
 */
export async function readMultipartForm(panel: Panel, request: FastifyRequest, input: MultipartFormInput): Promise<MultipartForm> {
  const form: FormBody = {};
  const received: string[] = [];
  const refusedFiles: Record<string, string[]> = {};
  const add = (name: string, value: string) => {
    const list = form[name];
    form[name] = list === undefined ? value : Array.isArray(list) ? [...list, value] : [list, value];
  };
  let fileFields = new Map<string, CompiledField>();
  let first = true;
  // Each file is judged against its field's maxBytes by the upload service (the field's 422); the parser cuts a file only past the largest of them.
  const largest = uploadLimit([...panel.resources.values()].flatMap((resource) => resource.fields));
  // The files' bytes are stored as their parts arrive; their rows are recorded together at the end (one statement whatever their number).
  const uploads = panel.uploads.batch({ owner: input.owner });
  try {
    for await (const part of multipartParts(request.parts({ limits: { ...LIMITS, fieldSize: input.fieldSize, fileSize: largest + 1 } }))) {
      if (first) {
        first = false;
        const token = part.type === 'field' && part.fieldname === 'csrf_token' && typeof part.value === 'string' ? part.value : '';
        if (input.csrfToken === '' || !secretsEqual(token, input.csrfToken)) {
          if (part.type !== 'field') part.file.resume();
          return { refused: 'csrf' };
        }
        const writable = (await input.beforeParts?.()) ?? [];
        fileFields = new Map(writable.filter((field) => field.kind.attachments !== undefined).map((field) => [`record[${field.writeKey}]`, field]));
      }
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated) throw FormTooLargeError.ofBytes(input.fieldSize);
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        const problem = textProblem(part.fieldname) ?? textProblem(value);
        if (problem) throw new BadRequestError(`Form field ${JSON.stringify(part.fieldname)} ${problem}`);
        add(part.fieldname.endsWith('[]') ? part.fieldname.slice(0, -2) : part.fieldname, value);
        continue;
      }
      const field = fileFields.get(part.fieldname.endsWith('[]') ? part.fieldname.slice(0, -2) : part.fieldname);
      if (!field || part.filename === '') {
        // No file chosen (browsers send an empty part), a file no field takes, or one for a field this user may not write: read past it.
        part.file.resume();
        continue;
      }
      try {
        const id = await readFilePart(part.file, () => uploads.receive({ filename: part.filename, contentType: part.mimetype, contentTypeName: FILE_PART_CONTENT_TYPE, stream: partStream(part.file), maxBytes: fieldMaxBytes(field) }));
        received.push(id);
        add(`record[${field.writeKey}]`, id);
      } catch (error) {
        // Too large for its field, or a filename the upload cannot take: the form comes back with that field's message, the rest kept.
        const problem = receivedFileProblem(field, error);
        if (problem === undefined) throw error;
        part.file.unpipe();
        part.file.resume();
        refusedFiles[field.name] = [...(refusedFiles[field.name] ?? []), notKept(problem)];
      }
    }
    await uploads.record();
  } catch (error) {
    await uploads.discard();
    // A file past the largest any file field takes: the 413 page, as the API's upload endpoint refuses a body past its limit.
    // More files or fields than a form may send: the same 413 page as a form too large, rather than the parser's own error.
    throw (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE' ? new UploadTooLargeError(largest) : (tooManyParts(error) ?? error);
  }
  return { form, received, refusedFiles: Object.keys(refusedFiles).length > 0 ? refusedFiles : undefined };
}

/**
 * A file part's bytes through a stream of their own, for the upload service: a refusal in the
 * middle of the file (too large) destroys that stream, not the part's, which is then read past,
 * so that the parser goes on to the next part (a destroyed part ends the parsing). The parser's
 * own failures (a part cut short) and its mark of a part truncated at its size limit pass on.
 */
function partStream(file: Readable & { readonly truncated?: boolean }): Readable {
  const stream = new PassThrough();
  file.on('error', (error) => stream.destroy(error));
  Object.defineProperty(stream, 'truncated', { get: () => file.truncated });
  return file.pipe(stream);
}

/**
 * Removes the uploads a refused or failed write received, never throwing: the error that
 * refused the write is the answer, and an upload left behind (the database gone meanwhile)
 * still expires and is purged within the hour.
 */
export async function discardUploads(panel: Panel, owner: string, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await panel.uploads.discard({ owner, ids }).catch(() => undefined);
}
