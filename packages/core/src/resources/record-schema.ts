import type { View } from '../fields/field-types.js';
import type { CompiledField, CompiledResource, JsonSchema } from './compiled-types.js';

/**
 * The JSON Schema of a record on a view, from its fields' type modules: one property per field
 * visible there (a write-only type, which has no read schema, is left out), every one
 * required, nothing else. The response schemas and the OpenAPI document are built from it;
 * `fields` narrows it to those one actor reads (`FieldAccess.readable`).
 */
export function recordSchema(resource: CompiledResource, view: View, fields: readonly CompiledField[] = resource.fieldsOn(view)): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const schema = field.kind.schema(field, 'read');
    if (schema !== undefined) properties[field.name] = schema;
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * A field's write schema without `null`: a field with a presence rule (`required`) refuses
 * null with 422 ("can't be blank"), on create and on update alike, so its schema does not
 * offer it (`type: ['string', 'null']` → `'string'`, `enum` without null).
 */
function withoutNull(schema: JsonSchema): JsonSchema {
  const out: Record<string, unknown> = { ...schema };
  if (Array.isArray(out.type)) {
    const types = (out.type as unknown[]).filter((type) => type !== 'null');
    out.type = types.length === 1 ? types[0] : types;
  }
  if (Array.isArray(out.enum)) out.enum = (out.enum as unknown[]).filter((value) => value !== null);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as JsonSchema[]).filter((branch) => branch.type !== 'null');
  }
  return out as JsonSchema;
}

/**
 * The JSON Schema of a write body's attributes on a view (`new` for create, `edit` for
 * update): one property per writable field, under its write key (`author_id`). On create a
 * field with a presence rule (`required`, a required `belongs_to` too) is in `required`; on
 * update nothing is (omitted fields are kept, PATCH and PUT alike). Either way such a field is
 * not nullable, as the server refuses null for it. Other keys are allowed, as the API ignores
 * them. `fields` narrows it to those one actor may write (`FieldAccess.writableOnSome`).
 */
export function writeSchema(resource: CompiledResource, view: 'new' | 'edit', fields: readonly CompiledField[] = resource.fieldsOn(view)): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    // A field `readonly: true` is never written from the API; one with a rule is, by some actors.
    const schema = field.kind.writable && field.definition.options.readonly !== true ? field.kind.schema(field, 'write') : undefined;
    if (schema === undefined) continue;
    properties[field.writeKey] = field.required ? withoutNull(schema) : schema;
    // A field of several files also takes the list of those to remove.
    if (field.kind.attachments === 'many') properties[`${field.writeKey}_remove`] = { type: 'array', items: { type: 'string', description: 'The URL or the filename of an attached file.' }, maxItems: 100, examples: [[]] };
    if (view === 'new' && field.required) required.push(field.writeKey);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}
