import type { JsonSchema } from '@panel/core';

/** The first type a schema names other than null (`['string', 'null']` → `string`). */
function mainType(schema: JsonSchema): string | undefined {
  const types = [schema.type].flat().filter((type) => typeof type === 'string' && type !== 'null') as string[];
  return types[0];
}

/** `preferred`, moved inside the schema's `minimum` and `maximum`. */
function inBounds(schema: JsonSchema, preferred: number): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  const high = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  return Math.min(Math.max(preferred, low), high);
}

/** A string that fits the schema's length bounds and format. */
function exampleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'date') return '2026-01-15';
  if (schema.format === 'date-time') return '2026-01-15T09:30:00.000Z';
  if (schema.format === 'email' || /email/i.test(name)) return 'pat@example.com';
  if (schema.writeOnly === true) return 'correct horse battery staple';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 80;
  const text = `Example ${name.replace(/_/g, ' ')}`.padEnd(min, '.');
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

/** Whether `text` matches a schema's `pattern` as a validator matches it (ECMA-262, unanchored); a pattern this runtime cannot compile matches nothing. */
function matchesPattern(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/**
 * An example value that the schema accepts, from its keywords alone: the first non-null
 * `enum` value, a date for `format: date`, the lower bound of a number, one item of an array,
 * every property of an object; a string with a `pattern` only when the string made matches it.
 * Undefined when the schema says too little to make one (a `pattern` the made string does not
 * match, an `anyOf`), so that no example is better than a wrong one: contract tools
 * (Spectral's `oas3-valid-media-example`) check examples against their schema.
 */
export function exampleOf(schema: JsonSchema, name = 'value'): unknown {
  if ('const' in schema) return schema.const;
  // A schema that gives its own examples (the files to remove: none, since a document knows no attached file).
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) return undefined;
  if (schema.pattern !== undefined && mainType(schema) !== 'string') return undefined;
  switch (mainType(schema)) {
    case 'string': {
      const text = exampleString(schema, name);
      return schema.pattern === undefined || matchesPattern(String(schema.pattern), text) ? text : undefined;
    }
    case 'integer':
      return Math.ceil(inBounds(schema, 1));
    case 'number':
      return inBounds(schema, 1.5);
    case 'boolean':
      return true;
    case 'array': {
      const item = schema.items === undefined ? 'item' : exampleOf(schema.items as JsonSchema, name);
      return item === undefined ? [] : [item];
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const values = Object.entries(properties).map(([key, property]) => [key, exampleOf(property, key)] as const);
      const required = (schema.required ?? []) as string[];
      if (values.some(([key, value]) => value === undefined && required.includes(key))) return undefined;
      const made = Object.fromEntries(values.filter(([, value]) => value !== undefined));
      if (Object.keys(properties).length === 0 && typeof schema.additionalProperties === 'object') {
        const extra = exampleOf(schema.additionalProperties as JsonSchema, 'value');
        return extra === undefined ? {} : { key: extra };
      }
      return made;
    }
    default:
      return undefined;
  }
}
