import type { RecordRow } from '../records/record-row.js';
import { operationContext, type OperationInput } from './operation-input.js';
import { throwIfInvalid, writeAttributes } from './write-attributes.js';

/** What `update` takes besides the resource and actor. */
export interface UpdateInput extends OperationInput {
  readonly id: number;
  /** The attributes to change (a partial update: the others stay). */
  readonly attributes: Record<string, unknown>;
}

/**
 * Updates a record found through the policy scope: the record is read, `update` is authorized
 * on it (the policy answers first: a refused actor never learns what is wrong with the values),
 * the fields this actor may write on it are decided (`fieldAccess`, with the stored record),
 * sensitive fields are confirmed (`confirmFields`), the values are judged, then written, with
 * the scope applied again (see `RecordsRepository.update`). Returns the record on the show
 * view; throws `RecordNotFoundError`, `NotAuthorizedError` or `RecordInvalidError`.
 *
 * @example
 * await update({ panel, resource: 'Product', actor: admin, id: 3, attributes: { status: 'archived' } });
 */
export async function update(input: UpdateInput): Promise<RecordRow> {
  const context = operationContext(input);
  const { resource, authorize, scope, readable, records } = context;
  const beforeWrite = async ({ record }: { record: RecordRow }) => {
    await authorize('update', record);
    const { values, errors, confirming } = await writeAttributes({ input, context, action: 'update', record });
    if (confirming.length > 0) await input.confirmFields?.(confirming);
    throwIfInvalid(errors);
    return values;
  };
  return records.update({ resource, view: 'show', id: input.id, values: {}, scope, beforeWrite, readable });
}
