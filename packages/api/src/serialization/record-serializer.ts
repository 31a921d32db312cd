import type { FieldAccess, RecordRow, View } from '@panel/core';
import { POLICY_ACTOR } from '../controller/request-gate.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { fieldJson } from './field-value.js';

/**
 * One record as JSON: a key per field the request's actor reads on `view` (`access`: the
 * controller's `fieldAccess()`) (and on this record),
 * each value from the controller's `serializeFieldValue`. For a controller that keeps the
 * default `serializeFieldValue` and an actor that presents values as they are, each field
 * type's own serializer is called directly.
 */
export function serializeRecordFor(context: RequestContext, access: FieldAccess, row: RecordRow, view: View): Record<string, unknown> {
  const { controller } = context;
  const direct = context.route.defaultFieldValues && context.actor.presents === POLICY_ACTOR.presents;
  const record: Record<string, unknown> = {};
  for (const field of controller.recordFields(context.resource, view)) {
    if (!access.shows(field, view, row)) continue;
    record[field.name] = direct ? fieldJson({ field, row, view }) : controller.serializeFieldValue({ field, row, view });
  }
  return record;
}
