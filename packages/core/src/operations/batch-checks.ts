import type { RecordId, RecordKey } from '../resources/record-key.js';
import { BatchRefusedError } from '../errors/panel-errors.js';
import { characters } from '../validation/characters.js';
import { idKey } from '../records/bulk-records.js';
import { DEFAULT_MAX_BATCH_OPERATIONS, MAX_BATCH_OPERATIONS, type BatchInput, type BatchOperationInput } from './batch-types.js';

/**
 * Whether a checked update or delete names an id past the key column's range
 * (`RecordKey.beyondRange`; `checkBatchOperations` keeps such an id as sent): no record has it
 * (its 404), and no statement is sent with it.
 */
export const namesNoRecord = (operation: BatchOperationInput, key: RecordKey): boolean => operation.op !== 'create' && key.beyondRange(operation.id);

/**
 * The operations of a batch, checked: their number (at most `maxOperations`), their shape, no id
 * or ref twice; each id read as the resource's key reads it (one past the key column's range
 * names no record: its operation is a 404, see `namesNoRecord`). A batch that cannot run as sent
 * throws `BatchRefusedError` (the API's 400) before anything is read or written: `batch` checks
 * with it, and the API checks with it before it spends the batch's rate-limit units.
 *
 * @example
 * const operations = checkBatchOperations({ operations: [{ op: 'delete', id: 44 }], maxOperations: 100 }, panel.resource('BlogPost').key);
 */
export function checkBatchOperations(input: Pick<BatchInput, 'operations' | 'maxOperations'>, key: RecordKey): readonly BatchOperationInput[] {
  const max = input.maxOperations ?? DEFAULT_MAX_BATCH_OPERATIONS;
  if (!Number.isInteger(max) || max < 1 || max > MAX_BATCH_OPERATIONS) throw new TypeError(`operations.batch: maxOperations must be a whole number from 1 to ${MAX_BATCH_OPERATIONS}, instead got ${JSON.stringify(max)}.`);
  const { operations } = input;
  if (!Array.isArray(operations) || operations.length === 0) throw new BatchRefusedError('operations must be a non-empty list of operations');
  if (operations.length > max) throw new BatchRefusedError(`A batch holds at most ${max} operations, instead got ${operations.length}`);
  const ids = new Set<string>();
  const refs = new Set<string>();
  const checked: BatchOperationInput[] = [];
  for (const [index, operation] of operations.entries()) {
    const at = `operations[${index}]`;
    if (typeof operation !== 'object' || operation === null) throw new BatchRefusedError(`${at} must be an object`);
    if (operation.op !== 'create' && operation.op !== 'update' && operation.op !== 'delete') throw new BatchRefusedError(`${at}.op must be create, update or delete`);
    if (operation.ref !== undefined && (typeof operation.ref !== 'string' || operation.ref.length === 0 || characters(operation.ref) > 64)) throw new BatchRefusedError(`${at}.ref must be a string of 1 to 64 characters`);
    if (operation.ref !== undefined && refs.has(operation.ref)) throw new BatchRefusedError(`${at}.ref ${JSON.stringify(operation.ref)} is used twice in the batch`);
    if (operation.ref !== undefined) refs.add(operation.ref);
    if (operation.op === 'create' && operation.id !== undefined) throw new BatchRefusedError(`${at}: a create takes no id`);
    if (operation.op !== 'delete' && (typeof operation.data !== 'object' || operation.data === null || Array.isArray(operation.data))) throw new BatchRefusedError(`${at}.data must be an object of attributes`);
    if (operation.op === 'delete' && operation.data !== undefined) throw new BatchRefusedError(`${at}: a delete takes no data`);
    if (operation.ifMatch !== undefined && (operation.op === 'create' || typeof operation.ifMatch !== 'string')) throw new BatchRefusedError(`${at}.if_match is taken by update and delete, as a string`);
    if (operation.op === 'create') {
      checked.push(operation);
      continue;
    }
    const beyond = key.beyondRange(operation.id);
    const id = beyond ? (operation.id as RecordId) : key.fromJson(operation.id);
    if (id === undefined) throw new BatchRefusedError(`${at}.id must be the id of a record (${key.expected})`);
    if (ids.has(idKey(id))) throw new BatchRefusedError(`${at}.id ${JSON.stringify(operation.id)} is named twice in the batch`);
    ids.add(idKey(id));
    checked.push(id === operation.id ? operation : { ...operation, id });
  }
  return checked;
}

