import { Current, type RecordId } from '@panel/core';
import type { Transaction } from 'kysely';
import { errorReply } from '../errors/error-reply.js';
import { RequestContext } from '../pipeline/request-context.js';
import { runStages } from '../pipeline/run-pipeline.js';

/**
 * The ETag GET show would give this request's client, for a write whose controller reads show
 * without the authentication the write runs (`skipBeforeAction('setupAuthentication', { only:
 * ['show'] })`: a public show, whose anonymous reader may see less, such as a `null` label). The
 * show route's steps up to its current user run on a context of their own (with the credential
 * the write's gate verified and the write's session), the record is read through show's scope
 * with what show's actor may read and authorized for `show`, and show's controller tags it
 * (`recordEntityTag`). Undefined when show gives this client no record (one of its steps
 * refuses, the record is outside its scope, its policy refuses): no tag can match then.
 * `Current.user` is the write's again afterwards. `id` names the record (a create's has no `:id`);
 * `trx` is the write's transaction, if it has one.
 */
export async function showEntityTag(write: RequestContext, id: RecordId, trx: Transaction<any> | undefined): Promise<string | undefined> {
  const route = write.route.showRoute;
  if (!route) throw new TypeError('showEntityTag: the route has no show route to tag as.');
  const context = new RequestContext(route, write.request, write.reply, write.session.share());
  context.authenticated = write.authenticated;
  new route.controller(context);
  const user = Current.user;
  try {
    if (await runStages(context, route.stages)) return undefined;
    const { controller } = context;
    const records = trx ? write.panel.records.within(trx) : write.panel.records;
    const row = await records.find({ resource: write.resource, view: 'show', id, scope: controller.policyScope(), readable: controller.readableRecords() });
    await controller.authorize('show', row);
    return controller.recordEntityTag(row);
  } catch (error) {
    // A refusal (404, 302, 403, 401) means show gives this client no tag; anything else is the write's failure.
    if (errorReply(error).status < 500) return undefined;
    throw error;
  } finally {
    Current.user = user;
  }
}
