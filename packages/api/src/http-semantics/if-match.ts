import type { Transaction } from 'kysely';
import { PreconditionFailedError } from '../errors/api-errors.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { ifMatchHolds, parseEntityTags } from './entity-tag.js';

/**
 * `If-Match` on update and delete, in the write's transaction `trx`, once the record's row is
 * locked: reads the record through the policy scope (outside it: 404, as without the header),
 * and throws 412 unless the header is `*` or lists the ETag of the record's show answer now
 * (the controller's `recordEntityTag`). For `*` the show answer is not read: the action's own
 * find through the scope answers 404 for a record that is missing or outside it.
 */
export async function checkIfMatchFor(context: RequestContext, header: string, trx: Transaction<any>): Promise<void> {
  if (parseEntityTags(header) === '*') return;
  const { controller, resource } = context;
  const row = await context.panel.records.within(trx).find({ resource, view: 'show', id: controller.recordId(), scope: controller.policyScope(), readable: controller.readableRecords() });
  if (!ifMatchHolds(header, controller.recordEntityTag(row))) throw new PreconditionFailedError();
}
