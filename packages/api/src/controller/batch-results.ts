import type { BatchOutcome, BatchResult, CompiledResource, RecordRow, View } from '@panel/core';
import { refusedWriteReply } from '../errors/error-reply.js';

/** The body of a batch answer: each operation's result, and how many succeeded, failed or were rolled back. */
export interface BatchBody {
  readonly results: readonly Record<string, unknown>[];
  readonly summary: { readonly succeeded: number; readonly failed: number; readonly not_applied: number };
}

/** What turns a batch's outcomes into JSON: the resource, and the serializer of its records (the controller's). */
export interface BatchSerializer {
  readonly resource: CompiledResource;
  serializeRecord(row: RecordRow, view: View): Record<string, unknown>;
}

const WRITE_ACTION = { create: 'create', update: 'update', delete: 'destroy' } as const;

/** One operation's status and body, as its single endpoint answers them. */
function resultOf(outcome: BatchOutcome, serializer: BatchSerializer): { status: number; body: Record<string, unknown> } {
  const humanName = serializer.resource.naming.humanName;
  switch (outcome.status) {
    case 'created':
      return { status: 201, body: { record: serializer.serializeRecord(outcome.record, 'show') } };
    case 'updated':
      return { status: 200, body: { record: serializer.serializeRecord(outcome.record, 'show') } };
    case 'deleted':
      return { status: 200, body: { message: `${humanName} successfully deleted` } };
    case 'invalid': {
      const { status, body } = refusedWriteReply(WRITE_ACTION[outcome.op], humanName, outcome.errors);
      return { status, body: body as Record<string, unknown> };
    }
    case 'not_found':
      return { status: 404, body: { error: 'Not Found' } };
    case 'forbidden':
      return { status: 403, body: { error: 'Forbidden' } };
    case 'precondition_failed':
      return { status: 412, body: { error: 'Precondition Failed' } };
    case 'precondition_required':
      return { status: 428, body: { error: 'Precondition Required' } };
    case 'not_applied':
      return { status: 424, body: { error: 'Not applied: the batch was rolled back' } };
  }
}

/**
 * The answer of `POST …/<route_key>/batch`: 200 with every operation's result, or 422 when an
 * atomic batch failed (nothing written; the valid operations `424`). Each result is
 * `{ index, ref?, status, …body }` with the single endpoint's status and body.
 */
export function batchAnswer(result: BatchResult, atomic: boolean, serializer: BatchSerializer): { status: number; body: BatchBody } {
  const summary = { succeeded: 0, failed: 0, not_applied: 0 };
  const results = result.outcomes.map((outcome) => {
    const { status, body } = resultOf(outcome, serializer);
    if (status < 300) summary.succeeded += 1;
    else if (status === 424) summary.not_applied += 1;
    else summary.failed += 1;
    return { index: outcome.index, ...(outcome.ref === undefined ? {} : { ref: outcome.ref }), status, ...body };
  });
  return { status: atomic && !result.applied ? 422 : 200, body: { results, summary } };
}
