/** The integers Panel reads and writes are JavaScript numbers: a write of any other is refused (`must be an integer`). */
const SAFE = Number.MAX_SAFE_INTEGER;

type Schema = Record<string, unknown>;

const isType = (schema: Schema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the document states of every schema's size, where the schema left it out (Spectral's
 * OWASP rules, API4 "unrestricted resource consumption"): an integer is an `int64` within the
 * safe integers (±(2^53 − 1)), the range Panel accepts and answers; an array of named choices (`fields`,
 * `include`) holds each at most once. A bound the schema states itself is kept.
 */
function bounded(schema: Schema): Schema {
  let result = schema;
  if (isType(schema, 'integer')) {
    result = {
      ...result,
      ...(schema.format === undefined ? { format: 'int64' } : {}),
      ...(schema.minimum === undefined && schema.exclusiveMinimum === undefined ? { minimum: -SAFE } : {}),
      ...(schema.maximum === undefined && schema.exclusiveMaximum === undefined ? { maximum: SAFE } : {}),
    };
  }
  const items = schema.items;
  if (isType(schema, 'array') && schema.maxItems === undefined && isObject(items) && Array.isArray(items.enum)) result = { ...result, maxItems: items.enum.length };
  return result;
}

/** The document with `bounded` applied to every schema in it (a copy; `$ref`s and examples are left as they are). */
export function withSchemaBounds<T>(node: T): T {
  return walk(node, false);
}

/** `named`: the node's keys are names (`properties`, `paths`, …), not keywords: none of them is an example. */
function walk<T>(node: T, named: boolean): T {
  if (Array.isArray(node)) return node.map((item) => walk(item, false)) as T;
  if (!isObject(node)) return node;
  const walked: Schema = {};
  for (const [name, value] of Object.entries(node)) {
    walked[name] = !named && (name === 'example' || name === 'examples') ? value : walk(value, !named && NAMED.has(name));
  }
  return (!named && (typeof walked.type === 'string' || Array.isArray(walked.type)) ? bounded(walked) : walked) as T;
}

/** Keywords whose value is a map from names to schemas (or to objects that hold them). */
const NAMED = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'schemas', 'paths', 'responses', 'headers', 'content', 'securitySchemes', 'parameters', 'requestBodies', 'links', 'callbacks', 'webhooks']);
