import type { RecordRow } from '../records/record-row.js';
import { operationContext, type OperationInput } from './operation-input.js';
import type { RecordId } from '../resources/record-key.js';

/** What `show` takes besides the resource and actor. */
export interface ShowInput extends OperationInput {
  readonly id: RecordId;
  /** A sparse fieldset: the show view's field names to load; default every field of the view. */
  readonly fields?: ReadonlySet<string> | undefined;
  /**
   * The row's columns: `'all'` (the default), or `'view'` when nothing but the show view's
   * serializers reads the row (no policy decides on it, no override reads it).
   */
  readonly columns?: 'view' | 'all' | undefined;
}

/**
 * One record on the show view, found through the policy scope (outside it: `RecordNotFoundError`,
 * never a refusal), then authorized (`show`; refused: `NotAuthorizedError`).
 *
 * @example
 * const post = await show({ panel, resource: 'BlogPost', actor: user, id: 7 });
 */
export async function show(input: ShowInput): Promise<RecordRow> {
  const { resource, authorize, scope, readable, records } = operationContext(input);
  const row = await records.find({ resource, view: 'show', id: input.id, scope, readable, fields: input.fields, columns: input.columns });
  await authorize('show', row);
  return row;
}
