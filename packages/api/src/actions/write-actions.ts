import { checkBatchOperations, isPanelError, operations, type ErrorMessages, type RecordId, type RecordRow } from '@panel/core';
import type { Transaction } from 'kysely';
import { recordParams } from './record-params.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { batchParams } from './batch-params.js';
import { batchAnswer } from '../controller/batch-results.js';
import { ifMatchHolds } from '../http-semantics/entity-tag.js';
import { BadRequestError } from '../errors/api-errors.js';
import { isIncludeKey } from '../querying/include-params.js';
import { answerWithIncluded, writtenInclude } from './written-answer.js';
import { withStoredFileNames } from './stored-file-names.js';
import { tagWrittenAnswer } from './written-entity-tag.js';
import { showEntityTagger } from '../http-semantics/show-entity-tag.js';
import { spendBatchOperations } from '../pipeline/stages/rate-limit-stage.js';

const invalidErrors = (error: unknown): ErrorMessages | undefined =>
  isPanelError(error, 'PANEL_ERR_RECORD_INVALID') ? (error as unknown as { errors: ErrorMessages }).errors : undefined;

/**
 * POST /<route_key>: creates a record from the new view's fields; `createSuccessAction` or
 * `createFailAction` answers. `include` embeds the created record's associated records, read
 * after the write in its transaction; a bad `include` is a 400 before anything is written. The
 * answer's ETag is the record's show ETag, without the included records (`tagWrittenAnswer`).
 */
export async function createAction(context: RequestContext): Promise<unknown> {
  const { controller } = context;
  const include = writtenInclude(context);
  const attributes = recordParams(context.resource, context.request.body);
  return answerWithIncluded(context, include, async (written) => {
    try {
      const row = await operations.create({ ...controller.operationInput(), attributes });
      written(row);
      const answer = await controller.createSuccessAction(row);
      await tagWrittenAnswer(context, row, include !== undefined);
      return answer;
    } catch (error) {
      const errors = invalidErrors(error);
      if (errors) return controller.createFailAction(errors);
      throw error;
    }
  });
}

/**
 * PATCH or PUT /<route_key>/:id: updates the edit view's fields sent. The record is found
 * through the scope and authorized inside the update's operation (then the values are
 * checked), so it is read once; `updateSuccessAction` or `updateFailAction` answers. `include`
 * as on create.
 */
export async function updateAction(context: RequestContext): Promise<unknown> {
  const { controller } = context;
  const id = controller.recordId();
  const include = writtenInclude(context);
  const attributes = withStoredFileNames(context.actor, context.resource, recordParams(context.resource, context.request.body));
  return answerWithIncluded(context, include, async (written) => {
    try {
      const row = await operations.update({ ...controller.operationInput(), id, attributes });
      written(row);
      const answer = await controller.updateSuccessAction(row);
      await tagWrittenAnswer(context, row, include !== undefined);
      return answer;
    } catch (error) {
      const errors = invalidErrors(error);
      if (errors) return controller.updateFailAction(errors);
      throw error;
    }
  });
}

/** DELETE /<route_key>/:id; `destroySuccessAction` or `destroyFailAction` answers. */
export async function destroyAction(context: RequestContext): Promise<unknown> {
  const { controller } = context;
  try {
    await operations.destroy({ ...controller.operationInput(), id: controller.recordId() });
  } catch (error) {
    const errors = invalidErrors(error);
    if (errors) return controller.destroyFailAction(errors);
    throw error;
  }
  return controller.destroySuccessAction();
}

/**
 * POST /<route_key>/batch: creates, updates and deletes of this resource in one request
 * (`operations.batch`: atomic unless `"atomic": false`, each operation decided as its single
 * endpoint decides it, `if_match` against the record's ETag; under `requireIfMatch` an update or
 * delete without `if_match` is its 428). 200 with each result, or 422
 * when an atomic batch failed and nothing was written. A batch's answer embeds no associated
 * records: `include` (or an `include_…` option) is a 400 before anything is written.
 */
export async function batchAction(context: RequestContext, maxOperations: number): Promise<unknown> {
  const { controller } = context;
  const asked = Object.keys(context.request.query ?? {}).filter(isIncludeKey);
  if (asked.length > 0) throw new BadRequestError(`${asked.join(', ')}: a batch's answer embeds no associated records (read them with include on show or the list after the batch)`);
  const { operations: sent, atomic } = batchParams(context.request.body);
  // A batch that cannot run as sent is its 400 before it spends one unit per operation.
  const { length } = checkBatchOperations({ operations: sent, maxOperations }, context.resource.key);
  await spendBatchOperations(context, length);
  const list = sent.map((operation) => (operation.op === 'update' && typeof operation.data === 'object' && operation.data !== null && !Array.isArray(operation.data) ? { ...operation, data: withStoredFileNames(context.actor, context.resource, operation.data) } : operation));
  const requireIfMatch = context.route.requireIfMatch;
  // Under a public show, `if_match` is compared with the tag show gave this client (its steps run once, before the batch's transaction).
  const tagged = list.some((operation) => typeof operation.ifMatch === 'string' && operation.ifMatch.trim() !== '*');
  const asShown = context.route.showRoute && tagged ? await showEntityTagger(context) : undefined;
  const entityTag = asShown ? (row: RecordRow, trx: Transaction<any>) => asShown(row[context.resource.primaryKey] as RecordId, trx) : (row: RecordRow) => controller.recordEntityTag(row);
  const result = await operations.batch({ ...controller.operationInput(), operations: list, atomic, maxOperations, entityTag, ifMatchHolds, requireIfMatch });
  const { status, body } = batchAnswer(result, atomic, { resource: context.resource, serializeRecord: (row, view) => controller.serializeRecord(row, view) });
  // A partial batch whose every operation failed wrote nothing: its Idempotency-Key is not kept.
  context.wroteNothing = body.summary.succeeded === 0;
  return controller.render(status, body);
}
