import { RecordInvalidError } from '../errors/panel-errors.js';
import type { RecordRow } from '../records/record-row.js';
import { parseWriteValues } from '../records/write-values.js';
import { operationContext, type OperationInput } from './operation-input.js';

/** What `create` takes besides the resource and actor. */
export interface CreateInput extends OperationInput {
  /** The record's attributes, as a write body carries them under its singular key. */
  readonly attributes: Record<string, unknown>;
}

/**
 * Creates a record: parses the attributes writable on the new view, authorizes `create` with
 * the parsed values (the policy answers before the values are judged), then writes with the
 * database checks and the resource's `validate` hook (see `RecordsRepository.create`). Returns the record
 * on the show view; throws `NotAuthorizedError` or `RecordInvalidError` (its `errors` per field).
 *
 * @example
 * const post = await create({ panel, resource: 'BlogPost', actor: admin, attributes: { title: 'Hello' } });
 */
export async function create(input: CreateInput): Promise<RecordRow> {
  const { resource, authorize, records } = operationContext(input);
  const { values, errors } = parseWriteValues(resource, 'new', input.attributes);
  await authorize('create', values);
  if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
  return records.create({ resource, view: 'show', values });
}
