import type { Transaction } from 'kysely';
import { PreconditionFailedError } from '../errors/api-errors.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { ifMatchHolds, parseEntityTags } from './entity-tag.js';
import { showEntityTag } from './show-entity-tag.js';

/**
 * `If-Match` on update and delete, in the write's transaction `trx`, once the record's row is
 * locked: reads the record through the policy scope (outside it: 404, as without the header),
 * asks the policy whether the actor may run the action on it (RFC 9110 §13.2.1: preconditions
 * are evaluated after the request would otherwise succeed, so a refusal never depends on the
 * tag), then throws 412 unless the header is `*` or lists the ETag of the record's show answer
 * now (the controller's `recordEntityTag`). Where the controller's show skips the
 * authentication the write runs (a public show), the tag is show's for this client
 * (`showEntityTag`), the one GET show sent it. For `*` the show answer is not read: the action's
 * own find and policy answer first, and `*` holds for any record they let through.
 */
export async function checkIfMatchFor(context: RequestContext, header: string, trx: Transaction<any>): Promise<void> {
  if (parseEntityTags(header) === '*') return;
  const { controller, resource } = context;
  const row = await context.panel.records.within(trx).find({ resource, view: 'show', id: controller.recordId(), scope: controller.policyScope(), readable: controller.readableRecords() });
  await controller.authorize(context.action === 'destroy' ? 'destroy' : 'update', row);
  const tag = context.route.showRoute ? await showEntityTag(context, controller.recordId(), trx) : controller.recordEntityTag(row);
  if (tag === undefined || !ifMatchHolds(header, tag)) throw new PreconditionFailedError();
}
