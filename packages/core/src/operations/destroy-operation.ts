import { operationContext, type OperationInput } from './operation-input.js';
import type { RecordId } from '../resources/record-key.js';

/** What `destroy` takes besides the resource and actor. */
export interface DestroyInput extends OperationInput {
  readonly id: RecordId;
}

/**
 * Deletes a record found through the policy scope, once `destroy` is authorized on it; the
 * resource's `beforeDestroy` may refuse it in the delete's transaction. Throws
 * `RecordNotFoundError`, `NotAuthorizedError` or `RecordInvalidError` (its messages under `base`).
 *
 * @example
 * await destroy({ panel, resource: 'Comment', actor: admin, id: 12 });
 */
export async function destroy(input: DestroyInput): Promise<void> {
  const { resource, authorize, scope, records } = operationContext(input);
  await authorize('destroy', await records.find({ resource, view: 'show', id: input.id, scope }));
  await records.destroy({ resource, id: input.id, scope });
}
