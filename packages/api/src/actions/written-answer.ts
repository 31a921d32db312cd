import { shareTransaction, type RecordRow } from '@panel/core';
import { isIncludeKey, type IncludeRequest } from '../querying/include-params.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { readQuery } from './read-actions.js';
import { embedIncluded } from './included-answer.js';

/**
 * The `include` of a create's or an update's answer, read before the write with the route's
 * include modifier, on the show view, against what this
 * actor may read: an unknown or unreadable path, or one over the budget, is the 400 of show,
 * and nothing is written.
 */
export function writtenInclude(context: RequestContext): IncludeRequest | undefined {
  // The answer of a create or an update is the show's record: `include` reads it as on a show (`fields=` does not apply).
  const modifiers = context.route.recordModifiers.filter((modifier) => modifier.name === 'include');
  if (modifiers.length === 0) return undefined;
  const { include } = readQuery(context, context.resource, 'show', modifiers, isIncludeKey);
  return include === undefined || include.paths.length === 0 ? undefined : include;
}

/**
 * Runs a create or an update (`write`, which renders its answer) and, when `include` asks for
 * associated records, embeds them into the rendered `record` after the write, in the same
 * transaction: the included records see the write (a comment created under a post is among the
 * post's comments), and an error while reading them rolls the write back. A write already
 * inside the transaction of its preconditions (`If-Match`, `Idempotency-Key`) reads in it; any
 * other opens one, shared with every statement it makes (`shareTransaction`), and rolls it
 * back when the action rendered a refusal.
 */
export async function answerWithIncluded(context: RequestContext, include: IncludeRequest | undefined, write: (written: (row: RecordRow) => void) => Promise<unknown>): Promise<unknown> {
  if (include === undefined) return write(() => undefined);
  const run = async (): Promise<unknown> => {
    let row: RecordRow | undefined;
    const answer = await write((written) => {
      row = written;
    });
    const record = (context.rendered?.body as { record?: unknown } | undefined)?.record;
    if (row !== undefined && context.rendered !== undefined && context.rendered.status < 300 && typeof record === 'object' && record !== null) {
      await embedIncluded(context, include, [row], [record as Record<string, unknown>]);
    }
    return answer;
  };
  if (context.transaction !== undefined) return run();
  let answer: unknown;
  try {
    await shareTransaction(() =>
      context.panel.database.db.transaction().execute(async (trx) => {
        context.transaction = trx;
        try {
          answer = await run();
        } finally {
          context.transaction = undefined;
        }
        // A refusal (422) wrote nothing it keeps: whatever the operation began is rolled back.
        if (context.rendered === undefined || context.rendered.status >= 300) throw ROLLBACK;
      }),
    );
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return answer;
}

/** Rolls the write's transaction back without an error to answer (the action rendered a refusal). */
const ROLLBACK = Symbol('rollback');
