import type { BatchOperationInput } from '@panel/core';
import { BadRequestError } from '../errors/api-errors.js';

/**
 * A batch body's operations and mode: `{ "atomic"?: boolean, "operations": [{ "op", "ref"?,
 * "id"?, "data"?, "if_match"? }] }`, `if_match` read as `ifMatch`. A body of another shape is a
 * 400; each operation's own checks (its `op`, an id twice, the limit) are the batch
 * operation's (400 too).
 */
export function batchParams(body: unknown): { operations: BatchOperationInput[]; atomic: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('The body must be an object: { "atomic": true, "operations": [ … ] }');
  const { operations, atomic } = body as { operations?: unknown; atomic?: unknown };
  if (atomic !== undefined && typeof atomic !== 'boolean') throw new BadRequestError('atomic must be true or false');
  if (!Array.isArray(operations)) throw new BadRequestError('operations must be a list of operations: [{ "op": "create", "data": { … } }, …]');
  const list = operations.map((operation: unknown, index) => {
    if (typeof operation !== 'object' || operation === null || Array.isArray(operation)) throw new BadRequestError(`operations[${index}] must be an object`);
    const { op, ref, id, data, if_match } = operation as Record<string, unknown>;
    return { op, ref, id, data, ifMatch: if_match } as BatchOperationInput;
  });
  return { operations: list, atomic: atomic !== false };
}
