import type { RecordRow } from '../records/record-row.js';
import { operationContext, type OperationInput } from './operation-input.js';
import { throwIfInvalid, writeAttributes } from './write-attributes.js';
import { judgeUploads } from './judge-uploads.js';

/** What `create` takes besides the resource and actor. */
export interface CreateInput extends OperationInput {
  /** The record's attributes, as a write body carries them under its singular key. */
  readonly attributes: Record<string, unknown>;
}

/**
 * Creates a record: parses the attributes this actor may write on the new view (`fieldAccess`;
 * other keys are ignored or, with `unpermittedAttributes: 'reject'`, refused), sets the fields'
 * `default`s, authorizes `create` with the parsed values (the policy answers before the values
 * are judged), asks `confirmFields` about sensitive fields, then writes with the database
 * checks and the resource's `validate` hook (see `RecordsRepository.create`), and attaches the
 * uploads its file fields name (`uploader`'s, live, each used once; see `judgeUploads`). Returns the
 * record on the show view; throws `NotAuthorizedError` or `RecordInvalidError` (its `errors` per field).
 *
 * @example
 * const post = await create({ panel, resource: 'BlogPost', actor: admin, attributes: { title: 'Hello' } });
 */
export async function create(input: CreateInput): Promise<RecordRow> {
  const context = operationContext(input);
  const { resource, authorize, readable, records } = context;
  const { values, errors, confirming, files } = await writeAttributes({ input, context, action: 'create', record: null });
  await authorize('create', values);
  if (confirming.length > 0) await input.confirmFields?.(confirming);
  throwIfInvalid(errors);
  await judgeUploads({ panel: context.panel, uploader: input.uploader, files, errors });
  throwIfInvalid(errors);
  return records.create({ resource, view: 'show', values, readable, files, uploader: input.uploader });
}
