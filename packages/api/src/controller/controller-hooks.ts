import type { SelectQueryBuilder, Transaction } from 'kysely';
import type { CompiledField, CompiledResource, RecordId, ErrorMessages, FieldAccess, OperationInput, PolicyAction, ReadableRecords, RecordRow, ScopeFunction, View } from '@panel/core';
import type { ListQuery } from '../querying/list-modifier.js';
import type { QueryableFields } from '../querying/queryable-fields.js';
import type { FieldValue } from '../serialization/field-value.js';

/** A response an action rendered, not sent yet. */
export interface Rendered {
  status: number;
  body: unknown;
  /** The answer's ETag where it is not the digest of `body` (a write's answer with included records: the record's show ETag, see `tagWrittenAnswer`). */
  entityTag?: string | undefined;
}

/** A list's query parameters, checked (see `ResourcesController.listRequest`): each list modifier's part. */
export type ListRequest = Omit<ListQuery, 'problems'>;

/**
 * The controller's overridable methods as the stages and actions call them: each default is
 * `ResourcesController`'s, and an app's override of any of them (in its
 * `BaseResourcesController` or one resource's controller) is what runs. A leaf module, so
 * that the stages never import the controller class.
 */
export interface ControllerHooks {
  setupAuthentication(): unknown;
  render(status: number, body: unknown): Rendered;
  operationInput(): OperationInput;
  policyScope(): ScopeFunction | undefined;
  authorize(action: PolicyAction, record?: unknown): Promise<void>;
  readableRecords(): ReadableRecords | undefined;
  fieldAccess(resource?: CompiledResource): FieldAccess;
  recordFields(resource: CompiledResource, view: View): readonly CompiledField[];
  hidesAssociation(field: CompiledField): boolean;
  requireFieldConfirmation(): void;
  recordId(): RecordId;
  queryableFields(resource: CompiledResource, view: View): QueryableFields;
  listRequest(resource: CompiledResource): ListRequest;
  serializeRecords(rows: readonly RecordRow[], view: View): Record<string, unknown>[];
  serializeRecord(row: RecordRow, view: View): Record<string, unknown>;
  serializeFieldValue(value: FieldValue): unknown;
  createSuccessAction(row: RecordRow): unknown;
  createFailAction(errors: ErrorMessages): unknown;
  updateSuccessAction(row: RecordRow): unknown;
  updateFailAction(errors: ErrorMessages): unknown;
  destroySuccessAction(): unknown;
  destroyFailAction(errors: ErrorMessages): unknown;
  recordEntityTag(row: RecordRow): string;
  ifMatchRowLock(trx: Transaction<any>): SelectQueryBuilder<any, any, any>;
  checkIfMatch(header: string, trx: Transaction<any>): Promise<void>;
}
