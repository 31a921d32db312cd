import { describe, expect, it } from 'vitest';
import { Resource, compileResources, field, parseWriteValues, writeSchema, type ParsedWrite } from '@panel/core';

/** One field of each type the write-values suite leaves out, and the field rules. */
class ProductResource extends Resource {
  fields() {
    return [
      field.id(),
      field.text('name', { maxLength: 5, minLength: 2 }),
      field.text('sku', { format: /^[A-Z]{3}-\d+$/g }),
      field.text('emoji', { maxLength: 3 }),
      field.integer('stock', { min: 0, max: 1000 }),
      field.decimal('rating', { min: 0.5, max: 5 }),
      field.integer('size', { in: [36, 38, 40] }),
      field.text('colour', { in: ['red', 'green'] }),
      field.select('status', { options: ['draft', { value: 'live', label: 'Live' }] }),
      field.select('channel', { options: ['web', 'shop'], required: true }),
      field.tags('labels'),
      field.tags('short_labels', { maxTags: 2, maxLength: 4 }),
      field.keyValue('specs'),
      field.json('payload', { maxBytes: 40 }),
      field.password('password', { minLength: 8 }),
      field.textarea('summary'),
      field.markdown('body', { required: true }),
    ];
  }
}

const product = compileResources([ProductResource]).get('Product')!;
const REQUIRED = { channel: 'web', body: 'text' };

const create = (attributes: Record<string, unknown>): ParsedWrite => parseWriteValues(product, 'new', { ...REQUIRED, ...attributes });
const edit = (attributes: Record<string, unknown>): ParsedWrite => parseWriteValues(product, 'edit', attributes);
const errorsOf = (attributes: Record<string, unknown>) => create(attributes).errors;

describe('field rules: the messages Rails validations give', () => {
  it('maxLength and minLength count characters, not UTF-16 units: "is too long (maximum is N characters)"', () => {
    expect(errorsOf({ name: 'abcdef' })).toEqual({ name: ['is too long (maximum is 5 characters)'] });
    expect(errorsOf({ name: 'a' })).toEqual({ name: ['is too short (minimum is 2 characters)'] });
    expect(errorsOf({ name: 'abcde' })).toEqual({});
    // Three emoji are six UTF-16 units but three characters.
    expect(errorsOf({ emoji: '🙂🙂🙂' })).toEqual({});
    expect(errorsOf({ emoji: '🙂🙂🙂🙂' })).toEqual({ emoji: ['is too long (maximum is 3 characters)'] });
  });

  it('format must match: "is invalid"; a global flag on the pattern does not make the check alternate', () => {
    expect(errorsOf({ sku: 'ABC-12' })).toEqual({});
    expect(errorsOf({ sku: 'abc-12' })).toEqual({ sku: ['is invalid'] });
    // A /g pattern keeps lastIndex between tests: the same value must pass every time.
    for (let i = 0; i < 3; i += 1) expect(errorsOf({ sku: 'XYZ-9' }), `try ${i}`).toEqual({});
  });

  it('min and max bound numbers: "must be greater than or equal to N" / "less than or equal to N"', () => {
    expect(errorsOf({ stock: -1 })).toEqual({ stock: ['must be greater than or equal to 0'] });
    expect(errorsOf({ stock: 1001 })).toEqual({ stock: ['must be less than or equal to 1000'] });
    expect(errorsOf({ stock: 0, rating: 5 })).toEqual({});
    expect(errorsOf({ rating: 0.4 })).toEqual({ rating: ['must be greater than or equal to 0.5'] });
  });

  it('in lists the values allowed: "is not included in the list"', () => {
    expect(errorsOf({ size: 38, colour: 'red' })).toEqual({});
    expect(errorsOf({ size: 37 })).toEqual({ size: ['is not included in the list'] });
    expect(errorsOf({ colour: 'Red' })).toEqual({ colour: ['is not included in the list'] });
  });

  it('gives every broken rule of a write at once, each on its field', () => {
    expect(errorsOf({ name: 'abcdefg', stock: -5, colour: 'blue' })).toEqual({
      name: ['is too long (maximum is 5 characters)'],
      stock: ['must be greater than or equal to 0'],
      colour: ['is not included in the list'],
    });
  });

  it('leaves a null value to required: the rules apply only to a value', () => {
    expect(edit({ name: null, stock: null, colour: null })).toEqual({ values: { name: null, stock: null, colour: null }, errors: {} });
  });

  it('checks a rule only after the type: a number sent as text is "is not a number", not out of range', () => {
    expect(errorsOf({ stock: '-5' })).toEqual({ stock: ['is not a number'] });
  });
});

describe('select: "a value from options"', () => {
  it('stores one of the option values, whether the option is a string or { value, label }', () => {
    expect(create({ status: 'draft' }).values.status).toBe('draft');
    expect(create({ status: 'live' }).values.status).toBe('live');
  });

  it('refuses a label, another case, or a value that is not a string', () => {
    expect(errorsOf({ status: 'Live' })).toEqual({ status: ['is not included in the list'] });
    expect(errorsOf({ status: 'DRAFT' })).toEqual({ status: ['is not included in the list'] });
    expect(errorsOf({ status: 1 })).toEqual({ status: ['must be a string'] });
    expect(errorsOf({ status: ['draft'] })).toEqual({ status: ['must be a string'] });
  });

  it('a required select refuses null and a missing value', () => {
    expect(parseWriteValues(product, 'new', { body: 'x' }).errors).toEqual({ channel: ["can't be blank"] });
    expect(edit({ channel: null }).errors).toEqual({ channel: ["can't be blank"] });
  });
});

describe('tags: an array of strings', () => {
  it('keeps the order and each tag once', () => {
    expect(create({ labels: ['new', 'sale', 'new', 'Sale'] }).values.labels).toEqual(['new', 'sale', 'Sale']);
  });

  it('refuses anything but an array of strings', () => {
    for (const value of ['new', [1], ['a', null], { 0: 'a' }]) expect(errorsOf({ labels: value }), JSON.stringify(value)).toEqual({ labels: ['must be an array of strings'] });
  });

  it('refuses a blank tag', () => {
    expect(errorsOf({ labels: ['ok', ' '] })).toEqual({ labels: ['must not contain a blank tag'] });
    expect(errorsOf({ labels: [''] })).toEqual({ labels: ['must not contain a blank tag'] });
  });

  it('holds at most maxTags tags of at most maxLength characters (defaults 100 and 100)', () => {
    expect(errorsOf({ short_labels: ['a', 'b', 'c'] })).toEqual({ short_labels: ['has too many tags (maximum is 2)'] });
    expect(errorsOf({ short_labels: ['a', 'a', 'b'] })).toEqual({});
    expect(errorsOf({ short_labels: ['abcde'] })).toEqual({ short_labels: ['has a tag that is too long (maximum is 4 characters)'] });
    expect(errorsOf({ labels: Array.from({ length: 100 }, (_, i) => `t${i}`) })).toEqual({});
    expect(errorsOf({ labels: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toEqual({ labels: ['has too many tags (maximum is 100)'] });
    expect(errorsOf({ labels: ['x'.repeat(101)] })).toEqual({ labels: ['has a tag that is too long (maximum is 100 characters)'] });
  });

  it('an empty array stays an empty array; null stays null', () => {
    expect(edit({ labels: [] }).values).toEqual({ labels: [] });
    expect(edit({ labels: null }).values).toEqual({ labels: null });
  });

  it('"the tags type trims each tag" (outer spaces never make two tags), and keeps a comma inside one', () => {
    expect(create({ labels: [' padded ', 'x', 'x '] }).values.labels).toEqual(['padded', 'x']);
    expect(create({ labels: ['b,c'] }).values.labels).toEqual(['b,c']);
    // Trimmed before counting: outer spaces never push a tag past maxLength.
    expect(errorsOf({ short_labels: ['  abcd  '] })).toEqual({});
  });

  it('refuses a NUL character inside a tag as text no table can store', () => {
    expect(errorsOf({ labels: ['a\u0000b'] })).toEqual({ labels: ['must not contain a NUL character'] });
  });
});

describe('key_value and json: an object in a jsonb column', () => {
  it('a key_value maps each key to a string, and is stored as one JSON text', () => {
    const { values, errors } = create({ specs: { weight: '1.2 kg', colour: 'red' } });
    expect(errors).toEqual({});
    expect(JSON.parse(values.specs as string)).toEqual({ weight: '1.2 kg', colour: 'red' });
    expect(errorsOf({ specs: { weight: 1.2 } })).toEqual({ specs: ['must map each key to a string'] });
    expect(errorsOf({ specs: { nested: { a: 'b' } } })).toEqual({ specs: ['must map each key to a string'] });
  });

  it('a json field takes any object, nested, but not an array, a string or a number', () => {
    expect(JSON.parse(create({ payload: { a: [1, { b: null }] } }).values.payload as string)).toEqual({ a: [1, { b: null }] });
    for (const value of [[1, 2], '{"a":1}', 3, true]) expect(errorsOf({ payload: value }), JSON.stringify(value)).toEqual({ payload: ['must be an object'] });
  });

  it('refuses an object larger than maxBytes of JSON text, counted in bytes', () => {
    expect(errorsOf({ payload: { k: 'x'.repeat(33) } })).toEqual({ payload: ['is too large (maximum is 40 bytes)'] });
    // {"k":""} is 8 bytes; each é is 2: 16 of them make exactly 40 bytes, 17 make 42.
    expect(errorsOf({ payload: { k: 'é'.repeat(10) } })).toEqual({});
    expect(errorsOf({ payload: { k: 'é'.repeat(16) } })).toEqual({});
    expect(errorsOf({ payload: { k: 'é'.repeat(17) } })).toEqual({ payload: ['is too large (maximum is 40 bytes)'] });
    expect(errorsOf({ specs: { k: 'x'.repeat(16_384) } })).toEqual({ specs: ['is too large (maximum is 16384 bytes)'] });
  });

  it('refuses a __proto__ key or a constructor.prototype key at any depth, as the API\'s JSON parser does (a form reads its text with JSON.parse, which keeps them)', () => {
    const message = 'must not have a key named __proto__ or constructor.prototype';
    expect(errorsOf({ specs: JSON.parse('{"__proto__": "x"}') })).toEqual({ specs: [message] });
    expect(errorsOf({ specs: JSON.parse('{"constructor": {"prototype": "x"}}') })).toEqual({ specs: [message] });
    expect(errorsOf({ payload: JSON.parse('{"a": [{"__proto__": {}}]}') })).toEqual({ payload: [message] });
    expect(errorsOf({ payload: JSON.parse('{"a": {"constructor": {"prototype": 1}}}') })).toEqual({ payload: [message] });
    // A key named constructor, or prototype, alone is an ordinary key.
    expect(errorsOf({ specs: { constructor: 'x', prototype: 'y' } })).toEqual({});
    expect(errorsOf({ payload: { constructor: { name: 'x' } } })).toEqual({});
  });

  it('refuses a NUL character in a key or a value: jsonb cannot hold U+0000', () => {
    expect(errorsOf({ specs: { 'a\u0000': 'b' } })).toEqual({ specs: ['must not contain a NUL character'] });
    expect(errorsOf({ payload: { a: ['b\u0000'] } })).toEqual({ payload: ['must not contain a NUL character'] });
  });
});

describe('password: write-only, "stored only as a scrypt digest in <name>_digest"', () => {
  it('is written under its name and kept for the column <name>_digest', () => {
    const { values, errors } = create({ password: 'correct horse' });
    expect(errors).toEqual({});
    expect(Object.keys(values)).toContain('password_digest');
    expect(values).not.toHaveProperty('password');
  });

  it('applies minLength to the password as sent and refuses one over 1024 characters', () => {
    expect(errorsOf({ password: 'short' })).toEqual({ password: ['is too short (minimum is 8 characters)'] });
    expect(errorsOf({ password: 'p'.repeat(1025) })).toEqual({ password: ['is too long (maximum is 1024 characters)'] });
    expect(errorsOf({ password: 'p'.repeat(1024) })).toEqual({});
    expect(errorsOf({ password: 12345678 })).toEqual({ password: ['must be a string'] });
  });

  it('a blank password on an edit keeps the stored digest: nothing is written for it', () => {
    expect(edit({ password: '' })).toEqual({ values: {}, errors: {} });
    expect(edit({ password: null })).toEqual({ values: {}, errors: {} });
  });

  it('is not on index or show, only on the forms', () => {
    expect(product.fieldsOn('show').map((f) => f.name)).not.toContain('password');
    expect(product.fieldsOn('index').map((f) => f.name)).not.toContain('password');
    expect(product.fieldsOn('edit').map((f) => f.name)).toContain('password');
  });
});

describe('textarea and markdown: long text', () => {
  it('are off the index by default and on show and the forms', () => {
    const index = product.fieldsOn('index').map((f) => f.name);
    expect(index).not.toContain('summary');
    expect(index).not.toContain('body');
    expect(product.fieldsOn('show').map((f) => f.name)).toEqual(expect.arrayContaining(['summary', 'body']));
  });

  it('store the text as sent, blank included when not required', () => {
    expect(edit({ summary: '  ', body: 'Line one\nLine two' }).values).toEqual({ summary: '  ', body: 'Line one\nLine two' });
    expect(edit({ body: '   ' }).errors).toEqual({ body: ["can't be blank"] });
    expect(errorsOf({ summary: 5 })).toEqual({ summary: ['must be a string'] });
  });
});

describe('a format in the write schema: "a body the document calls valid is accepted"', () => {
  class CodeResource extends Resource {
    fields() {
      return [field.id(), field.text('sku', { format: /^[A-Z]{3}-\d+$/g }), field.textarea('note', { format: /^\S/ }), field.text('nickname', { format: /^[a-z]+$/i })];
    }
  }
  const code = compileResources([CodeResource]).get('Code')!;
  const properties = (writeSchema(code, 'new') as { properties: Record<string, Record<string, unknown>> }).properties;

  it('a format without flags (or only `g`, which the server drops) is the `pattern`, as JSON Schema matches it: unanchored, no flags', () => {
    expect(properties.sku).toMatchObject({ pattern: '^[A-Z]{3}-\\d+$' });
    expect(properties.note).toMatchObject({ pattern: '^\\S' });
  });

  it('a format whose flags change what matches (`i`) has no flagless pattern: it is described, never given a pattern that refuses what the server takes', () => {
    expect(properties.nickname!.pattern).toBeUndefined();
    expect(properties.nickname!.description).toBe('Must match the regular expression /^[a-z]+$/i (checked by the server).');
    expect(create({ nickname: 'ADA' }).errors).toEqual({});
  });
});
