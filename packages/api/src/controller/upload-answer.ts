import '@fastify/multipart';
import { FILE_PART_CONTENT_TYPE, UploadRefusedError, uploadLimit, type CompiledField, type CompiledResource, type FieldAccess, type Panel } from '@panel/core';
import { ForbiddenError } from '../errors/api-errors.js';
import { credentialKey, type CredentialSource } from '../http-semantics/credential-key.js';
import { directUploadParams } from '../actions/upload-params.js';
import { firstMultipartPart, readFilePart } from '../actions/multipart-parts.js';

/** The request as an upload sees it: the request, the panel, and the credential that uploads (a request's context has these). */
interface UploadHost extends CredentialSource {
  readonly panel: Panel;
}

/**
 * The body of `POST <mount>/uploads` (`ResourcesController.upload`): `multipart/form-data` with
 * a part named `file`, streamed through `panel.uploads.receive`, at most the largest `maxBytes`
 * of the file fields the actor may write (more: 413); or, with JSON `{ filename, content_type,
 * byte_size, checksum }`, a direct upload. 403 for an actor who may write no file field.
 * `onBytes` is told the bytes read as they arrive (the rate limit's meter of a chunked body).
 */
export async function receivedUpload(host: UploadHost, fieldAccess: (resource: CompiledResource) => FieldAccess, onBytes?: (byteSize: number) => Promise<void> | void): Promise<unknown> {
  const maxBytes = uploadLimit(await uploadableFields(host.panel, fieldAccess));
  if (maxBytes === 0) throw new ForbiddenError();
  const owner = credentialKey(host, 'public');
  const { request } = host;
  if (!request.isMultipart()) return host.panel.uploads.direct({ owner, maxBytes, ...directUploadParams(request.body) });
  // One byte over the limit lets the upload service see the file is too large, and stop there.
  const part = await onePart(firstMultipartPart(request.file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 0 } })));
  if (!part || part.fieldname !== 'file') throw new UploadRefusedError(ONE_PART);
  return { upload: await onePart(readFilePart(part.file, () => host.panel.uploads.receive({ owner, filename: part.filename, contentType: part.mimetype, contentTypeName: FILE_PART_CONTENT_TYPE, stream: part.file, maxBytes, onBytes }))) };
}

/** What a multipart upload must be, said when it is something else. */
const ONE_PART = 'Send the file as multipart/form-data with one part, named "file", and no other part';

/** The parser's refusals of a part beyond the one file (a text field, a second file, a part past the limit): its 413 is no size problem, but a body of other parts. */
const OTHER_PART = new Set(['FST_FIELDS_LIMIT', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT']);

/** `reading`, with a body of other parts than the one file refused by Panel's 400 (`ONE_PART`) instead of the parser's 413. */
async function onePart<T>(reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (error) {
    throw OTHER_PART.has((error as { code?: unknown } | null)?.code as string) ? new UploadRefusedError(ONE_PART) : error;
  }
}

/** The file fields the actor may write, on any resource (on a new record or a stored one): what its uploads may be attached to. */
export async function uploadableFields(panel: Panel, fieldAccess: (resource: CompiledResource) => FieldAccess): Promise<CompiledField[]> {
  const fields: CompiledField[] = [];
  for (const resource of panel.resources.values()) {
    if (!resource.fields.some((field) => field.kind.attachments !== undefined)) continue;
    const access = fieldAccess(resource);
    for (const field of [...(await access.writable('create', null)), ...(await access.writable('update', null))]) if (field.kind.attachments !== undefined) fields.push(field);
  }
  return fields;
}
