import { NotAuthorizedError, operations, type CompiledResource, type RecordId, type RecordRow } from '@panel/core';
import type { ScreenActor } from './screen-actor.js';

/** Refuses (`NotAuthorizedError`, the 403 page) a user the policy does not let create `resource`: the new form's and the create's check. */
export async function mayCreate(actor: ScreenActor, resource: CompiledResource): Promise<void> {
  if (!(await actor.may(resource, 'create'))) throw new NotAuthorizedError('create', resource.naming.humanName);
}

/** The record an edit form or an update works on: found through the scope (else the 404 page), and the policy's `update` on it (else the 403 page). */
export async function editableRecord(actor: ScreenActor, resource: CompiledResource, id: RecordId): Promise<RecordRow> {
  const row = await operations.show({ ...actor.input(resource), id });
  if (!(await actor.may(resource, 'update', row))) throw new NotAuthorizedError('update', resource.naming.humanName);
  return row;
}
