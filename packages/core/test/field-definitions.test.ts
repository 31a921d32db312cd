import { describe, expect, it } from 'vitest';
import {
  BUILTIN_FIELD_TYPES,
  Resource,
  compileResources,
  defineField,
  defineFieldType,
  field,
  fieldTypeRegistry,
  isPanelError,
  isResourceClass,
  parseWriteValues,
  writableFields,
  type FieldDefinition,
} from '@panel/core';

/** A resource class around `fields`, named `name`. */
function resourceOf(name: string, fields: () => FieldDefinition[], statics: Record<string, unknown> = {}) {
  const resourceClass = class extends Resource {
    fields() {
      return fields();
    }
  };
  Object.defineProperty(resourceClass, 'name', { value: `${name}Resource` });
  return Object.assign(resourceClass, statics);
}

/** The message of the PanelConfigError `work` throws. */
function configError(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(isPanelError(error, 'PANEL_ERR_CONFIG'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a PanelConfigError');
}

const compileOne = (fields: () => FieldDefinition[], statics: Record<string, unknown> = {}) => compileResources([resourceOf('Item', fields, statics)]);

describe('select options are checked when the resource compiles', () => {
  it('needs a non-empty options array', () => {
    expect(configError(() => compileOne(() => [field.id(), field.select('status', { options: [] })]))).toBe(
      `Resource Item: the field "status": a select needs a non-empty options array. Fix: field.select('status', { options: ['draft', 'active'] }) or options: [{ value: 'draft', label: 'Draft' }].`,
    );
    expect(configError(() => compileOne(() => [field.id(), field.select('status', {} as never)]))).toMatch(/a select needs a non-empty options array/);
  });

  it('takes strings or { value, label } pairs of strings, and each value once', () => {
    expect(configError(() => compileOne(() => [field.select('status', { options: [{ value: 'a' } as never] })]))).toMatch(/each option is a string or \{ value, label \} with two strings/);
    expect(configError(() => compileOne(() => [field.select('status', { options: [1 as never] })]))).toMatch(/each option is a string or/);
    expect(configError(() => compileOne(() => [field.select('status', { options: ['a', { value: 'a', label: 'A' }] })]))).toMatch(/an option value is listed twice/);
  });
});

describe('a password field is write-only', () => {
  it('refuses onlyOn or showOn naming index or show', () => {
    expect(configError(() => compileOne(() => [field.password('password', { showOn: 'show' })]))).toBe(
      'Resource Item: the field "password": a password is write-only: it is never shown on index or show. Fix: remove show from its onlyOn / showOn.',
    );
    expect(configError(() => compileOne(() => [field.password('password', { onlyOn: ['index', 'edit'] })]))).toMatch(/remove index, edit from its onlyOn/);
  });

  it('stores in <name>_digest unless the column option says otherwise', () => {
    const compiled = compileOne(() => [field.password('secret'), field.password('pin', { column: 'pin_hash' })]).get('Item')!;
    expect(compiled.fieldsByName.get('secret')!.column).toBe('secret_digest');
    expect(compiled.fieldsByName.get('pin')!.column).toBe('pin_hash');
  });
});

describe('per-actor field rules are checked when the resource compiles', () => {
  it('visible must be a function, readonly a boolean or a function, default a function, confirm a boolean', () => {
    expect(configError(() => compileOne(() => [field.text('a', { visible: true as never })]))).toBe('Resource Item: the field "a": visible must be a function ({ user, record, view }) => boolean, instead got true.');
    expect(configError(() => compileOne(() => [field.text('a', { readonly: 'yes' as never })]))).toMatch(/readonly must be true, false or a function/);
    expect(configError(() => compileOne(() => [field.text('a', { default: 'x' as never })]))).toBe('Resource Item: the field "a": default must be a function ({ user }) => value, instead got "x". Fix: default: () => "x".');
    expect(configError(() => compileOne(() => [field.text('a', { confirm: 1 as never })]))).toMatch(/confirm must be true or false, instead got 1/);
  });

  it('a readonly: true field is not writable on any form; a function readonly is decided per actor later', () => {
    const compiled = compileOne(() => [field.id(), field.text('a', { readonly: true }), field.text('b', { readonly: () => true }), field.text('c')]).get('Item')!;
    expect(writableFields(compiled, 'new').map((f) => f.name)).toEqual(['b', 'c']);
    expect(parseWriteValues(compiled, 'edit', { a: 'x', c: 'y' }).values).toEqual({ c: 'y' });
  });
});

describe('static search names searchable text fields shown on show', () => {
  it('accepts text, textarea and markdown fields', () => {
    const compiled = compileOne(() => [field.id(), field.text('title'), field.textarea('body'), field.markdown('notes')], { search: ['title', 'body', 'notes'] }).get('Item')!;
    expect(compiled.search.map((f) => f.name)).toEqual(['title', 'body', 'notes']);
  });

  it('refuses a field that is not text, not shown on show, unknown, named twice, or a list that is not of names', () => {
    const fields = () => [field.id(), field.text('title'), field.text('secret', { onlyOn: 'index' }), field.integer('pages')];
    expect(configError(() => compileOne(fields, { search: ['pages'] }))).toMatch(/^Resource Item: static search names "pages", which is not a searchable field/);
    expect(configError(() => compileOne(fields, { search: ['secret'] }))).toMatch(/names "secret", which is not a searchable field/);
    expect(configError(() => compileOne(fields, { search: ['nope'] }))).toMatch(/names "nope"/);
    expect(configError(() => compileOne(fields, { search: ['title', 'title'] }))).toMatch(/static search names a field twice/);
    expect(configError(() => compileOne(fields, { search: 'title' }))).toMatch(/static search must be an array of field names/);
  });

  it('is empty when the resource declares none', () => {
    expect(compileOne(() => [field.id(), field.text('title')]).get('Item')!.search).toEqual([]);
  });
});

describe('field types an app registers', () => {
  const stars = defineFieldType({
    name: 'stars',
    serialize: ({ field, row }) => row[field.column!],
    schema: () => ({ type: 'integer', minimum: 1, maximum: 5 }),
    parse: (value) => (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 5 ? { ok: true, value } : { ok: false, message: 'must be 1 to 5 stars' }),
  });

  it('a field of an unregistered type fails naming the type and the fix', () => {
    expect(configError(() => compileOne(() => [defineField('stars', 'rating')]))).toMatch(/^Resource Item: the field "rating" has the type "stars", which no field type module registers\. Fix: pass its module to createPanel\(\{ fieldTypes/);
  });

  it('a registered type compiles, is writable because it parses, and its parse decides the message', () => {
    const registry = fieldTypeRegistry([stars]);
    const compiled = compileResources([resourceOf('Review', () => [field.id(), defineField('stars', 'rating')])], registry).get('Review')!;
    expect(parseWriteValues(compiled, 'new', { rating: 4 })).toEqual({ values: { rating: 4 }, errors: {} });
    expect(parseWriteValues(compiled, 'new', { rating: 6 }).errors).toEqual({ rating: ['must be 1 to 5 stars'] });
  });

  it('defineFieldType refuses a module without a snake_case name, serialize or schema, or a writable type without a column', () => {
    expect(configError(() => defineFieldType({ name: 'Stars', serialize: () => 1, schema: () => ({}) }))).toMatch(/name must be a snake_case identifier/);
    expect(configError(() => defineFieldType({ name: 'stars', schema: () => ({}) } as never))).toBe('Field type "stars": serialize must be a function. Fix: add serialize() to its module.');
    expect(configError(() => defineFieldType({ name: 'stars', serialize: () => 1, schema: () => ({}), defaultViews: ['list' as never] }))).toMatch(/defaultViews must be an array of index, show, new, edit/);
    expect(configError(() => defineFieldType({ name: 'stars', serialize: () => 1, schema: () => ({}), storage: 'none' }))).toMatch(/storage 'none' loads its value with select\(\)/);
    expect(configError(() => defineFieldType({ name: 'stars', serialize: () => 1, schema: () => ({}), writable: true }))).toMatch(/a writable type is stored in a column and parses its write values/);
    expect(Object.isFrozen(stars)).toBe(true);
  });

  it('the registry refuses a type registered twice, a built-in name included, and something that is not a module', () => {
    expect(configError(() => fieldTypeRegistry([stars, stars]))).toBe('createPanel: the field type "stars" is registered twice. Fix: give the app\'s type another name.');
    const text = BUILTIN_FIELD_TYPES.find((kind) => kind.name === 'text')!;
    expect(configError(() => fieldTypeRegistry([text]))).toMatch(/"text" is registered twice/);
    expect(configError(() => fieldTypeRegistry([{ name: 'x' } as never]))).toMatch(/which is not a field type module/);
    expect(configError(() => fieldTypeRegistry('stars' as never))).toMatch(/fieldTypes must be an array/);
  });

  it('every built-in type has a unique name', () => {
    const names = BUILTIN_FIELD_TYPES.map((kind) => kind.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['id', 'text', 'number', 'boolean', 'date', 'datetime', 'belongs_to', 'has_many', 'has_one', 'file', 'files', 'select', 'textarea', 'markdown', 'password', 'tags', 'key_value', 'json', 'has_and_belongs_to_many']));
  });
});

describe('field builders', () => {
  it('build frozen definitions: a resource cannot change a field after defining it', () => {
    const definition = field.text('title', { required: true });
    expect(definition).toEqual({ name: 'title', type: 'text', options: { required: true } });
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.options)).toBe(true);
  });

  it('integer and decimal are one number type told apart by numeric', () => {
    expect(field.integer('pages')).toMatchObject({ type: 'number', options: { numeric: 'integer' } });
    expect(field.decimal('price')).toMatchObject({ type: 'number', options: { numeric: 'decimal' } });
    // numeric is the builder's to set: passing it is an unknown option, not a way to turn an integer into a decimal.
    expect(() => field.integer('pages', { numeric: 'decimal' } as never)).toThrow(/^field\.integer\('pages'\): unknown option "numeric"/);
  });

  it('refuse a name that is not an identifier, whatever the builder', () => {
    for (const name of ['', '1st', 'first-name', 'a b', 'title;']) {
      expect(() => field.text(name), name).toThrow(TypeError);
      expect(() => field.belongsTo(name), name).toThrow(/the field name must be an identifier/);
    }
    expect(() => defineField('' as never, 'rating')).toThrow(/the type must be a field type name/);
  });

  it('isResourceClass knows a class with fields() from anything else', () => {
    expect(isResourceClass(resourceOf('Thing', () => []))).toBe(true);
    expect(isResourceClass({ fields: () => [] })).toBe(false);
    expect(isResourceClass(class {})).toBe(false);
    expect(isResourceClass(undefined)).toBe(false);
  });
});
