import { isPanelError, operations, type ErrorMessages, type RecordRow } from '@panel/core';
import { recordParams } from './record-params.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { batchParams } from './batch-params.js';
import { batchAnswer } from '../controller/batch-results.js';
import { ifMatchHolds } from '../http-semantics/entity-tag.js';
import type { IncludeRequest } from '../querying/include-params.js';
import { readQuery } from './read-actions.js';
import { embedIncluded } from './included-answer.js';

const invalidErrors = (error: unknown): ErrorMessages | undefined =>
  isPanelError(error, 'PANEL_ERR_RECORD_INVALID') ? (error as unknown as { errors: ErrorMessages }).errors : undefined;

/**
 * `include` on the answer of a create or an update, read like a show's (the show view's paths,
 * this actor's graph, the budget) before anything is written: a bad one is the 400 of a show,
 * and nothing is written.
 */
function answerInclude(context: RequestContext): IncludeRequest | undefined {
  const modifiers = context.route.recordModifiers.filter((modifier) => modifier.name === 'include');
  return modifiers.length === 0 ? undefined : readQuery(context, context.resource, 'show', modifiers).include;
}

/** Embeds `include`'s records into the written record of a success answer (`{ record }`), one statement per path, after the write. */
async function withIncluded(context: RequestContext, include: IncludeRequest | undefined, row: RecordRow, answer: unknown): Promise<unknown> {
  const record = (answer as { body?: { record?: unknown } } | undefined)?.body?.record;
  if (include !== undefined && typeof record === 'object' && record !== null) await embedIncluded(context, include, [row], [record as Record<string, unknown>]);
  return answer;
}

/** POST /<route_key>: creates a record from the new view's fields; `createSuccessAction` or `createFailAction` answers. */
export async function createAction(context: RequestContext): Promise<unknown> {
  const { controller } = context;
  const attributes = recordParams(context.resource, context.request.body);
  const include = answerInclude(context);
  try {
    const row = await operations.create({ ...controller.operationInput(), attributes });
    return await withIncluded(context, include, row, await controller.createSuccessAction(row));
  } catch (error) {
    const errors = invalidErrors(error);
    if (errors) return controller.createFailAction(errors);
    throw error;
  }
}

/**
 * PATCH or PUT /<route_key>/:id: updates the edit view's fields sent. The record is found
 * through the scope and authorized inside the update's operation (then the values are
 * checked), so it is read once; `updateSuccessAction` or `updateFailAction` answers.
 */
export async function updateAction(context: RequestContext): Promise<unknown> {
  const { controller } = context;
  const id = controller.recordId();
  const attributes = recordParams(context.resource, context.request.body);
  const include = answerInclude(context);
  try {
    const row = await operations.update({ ...controller.operationInput(), id, attributes });
    return await withIncluded(context, include, row, await controller.updateSuccessAction(row));
  } catch (error) {
    const errors = invalidErrors(error);
    if (errors) return controller.updateFailAction(errors);
    throw error;
  }
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
 * endpoint decides it, `if_match` against the record's ETag). 200 with each result, or 422
 * when an atomic batch failed and nothing was written.
 */
export async function batchAction(context: RequestContext, maxOperations: number): Promise<unknown> {
  const { controller } = context;
  const { operations: list, atomic } = batchParams(context.request.body);
  const result = await operations.batch({ ...controller.operationInput(), operations: list, atomic, maxOperations, entityTag: (row) => controller.recordEntityTag(row), ifMatchHolds });
  const { status, body } = batchAnswer(result, atomic, { resource: context.resource, serializeRecord: (row, view) => controller.serializeRecord(row, view) });
  return controller.render(status, body);
}
