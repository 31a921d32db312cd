import { describe, expect, it } from 'vitest';
import { exampleOf } from './openapi-examples.js';

describe('exampleOf ("examples for … request bodies (from the resource\'s fields)")', () => {
  it('makes a value each keyword allows: enum, formats, bounds, lengths, arrays, objects', () => {
    expect(exampleOf({ type: ['string', 'null'], enum: [null, 'draft', 'active'] })).toBe('draft');
    expect(exampleOf({ type: ['string', 'null'], format: 'date' })).toBe('2026-01-15');
    expect(exampleOf({ type: 'string', format: 'date-time' })).toBe('2026-01-15T09:30:00.000Z');
    expect(exampleOf({ type: ['number', 'null'], minimum: 0, maximum: 1 })).toBe(1);
    expect(exampleOf({ type: 'integer', minimum: 3 })).toBe(3);
    expect(exampleOf({ type: 'string', maxLength: 4 }, 'title')).toBe('Exam');
    expect(exampleOf({ type: 'string', minLength: 20 }, 'code')).toHaveLength(20);
    expect(exampleOf({ type: 'string' }, 'email')).toBe('pat@example.com');
    expect(exampleOf({ type: ['array', 'null'], items: { type: 'string' } }, 'tags')).toEqual(['Example tags']);
    expect(exampleOf({ type: ['object', 'null'], additionalProperties: { type: 'string' } })).toEqual({ key: 'Example value' });
    expect(exampleOf({ type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] })).toEqual({ a: true });
  });

  it('gives no example rather than a wrong one: a pattern, a union, or a required property it cannot make', () => {
    expect(exampleOf({ type: 'string', pattern: '^x+$' })).toBeUndefined();
    expect(exampleOf({ anyOf: [{ type: 'string' }, { type: 'integer' }] })).toBeUndefined();
    expect(exampleOf({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['code'] })).toBeUndefined();
    expect(exampleOf({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, name: { type: 'string' } } }, 'x')).toEqual({ name: 'Example name' });
  });

  it('a string with a `pattern` gets the example it would get anyway only when that example matches the pattern (an email field\'s format), so it is never a wrong one', () => {
    expect(exampleOf({ type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }, 'email')).toBe('pat@example.com');
    expect(exampleOf({ type: 'string', pattern: '^Example' }, 'title')).toBe('Example title');
    expect(exampleOf({ type: 'integer', pattern: '^1$' })).toBeUndefined();
  });
});
