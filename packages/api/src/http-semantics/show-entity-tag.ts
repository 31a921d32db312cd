import { Current, type RecordId } from '@panel/core';
import type { Transaction } from 'kysely';
import { errorReply } from '../errors/error-reply.js';
import { RequestContext } from '../pipeline/request-context.js';
import { runStages } from '../pipeline/run-pipeline.js';

/** Tags a record as show tags it for one client (`showEntityTagger`): undefined when show gives that client no record. */
export type ShowEntityTagger = (id: RecordId, trx: Transaction<any> | undefined) => Promise<string | undefined>;

/** Whether an error is a refusal (a 4xx, or Edition A's 302), which means show gives the client no record; anything else is the write's failure. */
const refusal = (error: unknown): boolean => errorReply(error).status < 500;

/**
 * The ETags GET show would give this request's client, for a write whose controller reads show
 * without the authentication the write runs (`skipBeforeAction('setupAuthentication', { only:
 * ['show'] })`: a public show, whose anonymous reader may see less, such as a `null` label). The
 * show route's steps up to its current user run once, on a context of their own (with the
 * credential the write's gate verified and the write's session); then each record is read
 * through show's scope with what show's actor may read, authorized for `show`, and tagged by
 * show's controller (`recordEntityTag`). A tag is undefined when show gives this client no
 * record (one of its steps refuses, the record is outside its scope, its policy refuses): no
 * tag can match then. `Current.user` is the write's outside the tagger's own work. `trx` is the
 * write's transaction, if it has one.
 */
export async function showEntityTagger(write: RequestContext): Promise<ShowEntityTagger> {
  const route = write.route.showRoute;
  if (!route) throw new TypeError('showEntityTagger: the route has no show route to tag as.');
  const context = new RequestContext(route, write.request, write.reply, write.session.share());
  context.authenticated = write.authenticated;
  new route.controller(context);
  const writer = Current.user;
  let refused: boolean;
  try {
    refused = await runStages(context, route.stages);
  } catch (error) {
    if (!refusal(error)) throw error;
    refused = true;
  } finally {
    Current.user = writer;
  }
  if (refused) return async () => undefined;
  const { controller } = context;
  return async (id, trx) => {
    const outside = Current.user;
    Current.user = context.user;
    try {
      const records = trx ? write.panel.records.within(trx) : write.panel.records;
      const row = await records.find({ resource: write.resource, view: 'show', id, scope: controller.policyScope(), readable: controller.readableRecords() });
      await controller.authorize('show', row);
      return controller.recordEntityTag(row);
    } catch (error) {
      if (!refusal(error)) throw error;
      return undefined;
    } finally {
      Current.user = outside;
    }
  };
}

/** The ETag GET show would give this request's client for one record (see `showEntityTagger`). */
export async function showEntityTag(write: RequestContext, id: RecordId, trx: Transaction<any> | undefined): Promise<string | undefined> {
  return (await showEntityTagger(write))(id, trx);
}
