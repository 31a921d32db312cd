import type { RecordRow } from '../records/record-row.js';
import { operationContext, type OperationInput } from './operation-input.js';

/** What `show` takes besides the resource and actor. */
export interface ShowInput extends OperationInput {
  readonly id: number;
}

/**
 * One record on the show view, found through the policy scope (outside it: `RecordNotFoundError`,
 * never a refusal), then authorized (`show`; refused: `NotAuthorizedError`).
 *
 * @example
 * const post = await show({ panel, resource: 'BlogPost', actor: user, id: 7 });
 */
export async function show(input: ShowInput): Promise<RecordRow> {
  const { resource, authorize, scope, records } = operationContext(input);
  const row = await records.find({ resource, view: 'show', id: input.id, scope });
  await authorize('show', row);
  return row;
}
