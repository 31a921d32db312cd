import { RecordInvalidError } from '../errors/panel-errors.js';
import type { RecordRow } from '../records/record-row.js';
import { parseWriteValues } from '../records/write-values.js';
import { operationContext, type OperationInput } from './operation-input.js';

/** What `update` takes besides the resource and actor. */
export interface UpdateInput extends OperationInput {
  readonly id: number;
  /** The attributes to change (a partial update: the others stay). */
  readonly attributes: Record<string, unknown>;
}

/**
 * Updates a record found through the policy scope: the record is read, `update` is authorized
 * on it (the policy answers first: a refused actor never learns what is wrong with the values),
 * the values are judged, then written, with the scope applied again (see
 * `RecordsRepository.update`). Returns the record on the show view; throws `RecordNotFoundError`, `NotAuthorizedError` or `RecordInvalidError`.
 *
 * @example
 * await update({ panel, resource: 'Product', actor: admin, id: 3, attributes: { status: 'archived' } });
 */
export async function update(input: UpdateInput): Promise<RecordRow> {
  const { resource, authorize, scope, records } = operationContext(input);
  const { values, errors } = parseWriteValues(resource, 'edit', input.attributes);
  const beforeWrite = async ({ record }: { record: RecordRow }) => {
    await authorize('update', record);
    if (Object.keys(errors).length > 0) throw new RecordInvalidError(errors);
  };
  return records.update({ resource, view: 'show', id: input.id, values, scope, beforeWrite });
}
