import { sql, type AliasedExpression, type ExpressionBuilder } from 'kysely';
import type { CompiledField, CompiledResource } from '../resources/compiled-types.js';
import { ATTACHMENTS_TABLE, BLOBS_TABLE, type AttachedFile } from './attachment-tables.js';

/** What the select of a file field gives per blob, before its URL is made. */
export interface SelectedBlob {
  readonly key: string;
  readonly filename: string;
  readonly content_type: string;
  readonly byte_size: number;
}

/** Whether a field holds attachments. */
export const isFileField = (field: CompiledField): boolean => field.kind.attachments !== undefined;

/** Whether any field of the resource holds attachments (then deleting a record removes them). */
export const hasFileFields = (resource: CompiledResource): boolean => resource.fields.some(isFileField);

const BLOB_JSON = sql`json_build_object('key', pb.key, 'filename', pb.filename, 'content_type', pb.content_type, 'byte_size', pb.byte_size)`;

/**
 * The correlated subquery that loads a file field with the row, so that a page of records
 * and all their files come back in one statement: for `file`, the last attached blob as a
 * JSON object (or null); for `files` (attachments `many`), a JSON array of blobs by position.
 */
export function attachedFilesSubquery(
  eb: ExpressionBuilder<any, any>,
  resource: CompiledResource,
  field: CompiledField,
  rowAlias: string,
  as: string,
): AliasedExpression<unknown, string> {
  const attachments = eb
    .selectFrom(`${ATTACHMENTS_TABLE} as pa`)
    .innerJoin(`${BLOBS_TABLE} as pb`, 'pb.id', 'pa.blob_id')
    .where('pa.record_type', '=', resource.name)
    .where('pa.name', '=', field.name)
    .whereRef('pa.record_id', '=', `${rowAlias}.${resource.primaryKey}`);
  if (field.kind.attachments === 'one') return attachments.select(BLOB_JSON.as('blob')).orderBy('pa.position', 'desc').limit(1).as(as);
  return attachments.select(sql`coalesce(json_agg(${BLOB_JSON} order by pa.position, pa.id), '[]'::json)`.as('blobs')).as(as);
}

/** The file object the API shows for a selected blob. */
export function attachedFile(blob: SelectedBlob, url: (blob: SelectedBlob) => string): AttachedFile {
  return { filename: blob.filename, content_type: blob.content_type, byte_size: Number(blob.byte_size), url: url(blob) };
}
