import type { RecordRow } from '../records/record-row.js';
import { operationContext, type OperationInput } from './operation-input.js';
import { throwIfInvalid, writeAttributes } from './write-attributes.js';
import { judgeUploads } from './judge-uploads.js';
import { endSessionsOnPasswordChange } from './password-change.js';
import type { RecordId } from '../resources/record-key.js';

/** What `update` takes besides the resource and actor. */
export interface UpdateInput extends OperationInput {
  readonly id: RecordId;
  /** The attributes to change (a partial update: the others stay). */
  readonly attributes: Record<string, unknown>;
}

/**
 * Updates a record, as a straight line: find it through the policy scope (outside it:
 * `RecordNotFoundError`), authorize `update` on it (the policy answers first: a refused actor
 * never learns what is wrong with the values), decide the fields this actor may write on it
 * (`fieldAccess`, with the stored record), confirm sensitive fields (`confirmFields`), judge the
 * values, then write them on the row found, with the scope applied again (see
 * `RecordsRepository.update`); a changed password ends the user's panel sessions. Returns the record on the show view; throws
 * `RecordNotFoundError`, `NotAuthorizedError` or `RecordInvalidError`.
 *
 * @example
 * await update({ panel, resource: 'Product', actor: admin, id: 3, attributes: { status: 'archived' } });
 */
export async function update(input: UpdateInput): Promise<RecordRow> {
  const context = operationContext(input);
  const { resource, authorize, scope, readable, records } = context;
  const existing = await records.find({ resource, view: 'edit', id: input.id, scope });
  await authorize('update', existing);
  const { values, errors, confirming, files } = await writeAttributes({ input, context, action: 'update', record: existing });
  if (confirming.length > 0) await input.confirmFields?.(confirming);
  throwIfInvalid(errors);
  await judgeUploads({ panel: context.panel, uploader: input.uploader, files, errors });
  throwIfInvalid(errors);
  const row = await records.update({ resource, view: 'show', id: input.id, values, existing, scope, readable, files, uploader: input.uploader });
  await endSessionsOnPasswordChange(context, input, input.id, values);
  return row;
}
