// Each type parses its own filter values (what `filter[<field>][<op>]=` sends) and describes
// them as JSON Schema (what the OpenAPI document reads): one module per type, no switch elsewhere.
import { describe, expect, it } from 'vitest';
import { Resource, compileResources, field } from '@panel/core';

class ListingResource extends Resource {
  fields() {
    return [
      field.id(),
      field.text('title'),
      field.textarea('summary'),
      field.integer('rooms'),
      field.decimal('price'),
      field.boolean('furnished'),
      field.date('available_on'),
      field.datetime('listed_at'),
      field.select('kind', { options: ['flat', { value: 'house', label: 'House' }] }),
      field.tags('features'),
      field.belongsTo('agent', { resource: 'Listing' }),
      field.keyValue('extras'),
      field.password('code'),
      field.hasMany('viewings', { resource: 'Listing' }),
      field.text('secret', { filterable: false }),
    ];
  }
}

const listing = compileResources([ListingResource]).get('Listing')!;
const target = (name: string) => listing.fieldsByName.get(name)!;
const parse = (name: string, raw: string) => target(name).kind.filter!.parse(raw, target(name));
const schema = (name: string) => target(name).kind.filter!.schema(target(name));

describe('filter values per type', () => {
  it('a date filter takes a calendar date only', () => {
    expect(parse('available_on', '2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    for (const raw of ['2026-02-30', '28/02/2026', '2026-02-28T00:00:00Z', '']) expect(parse('available_on', raw).ok, raw).toBe(false);
  });

  it('a datetime filter takes an instant with a zone, as a Date', () => {
    const parsed = parse('listed_at', '2026-11-22T11:40:00+01:00');
    expect(parsed.ok && (parsed.value as Date).toISOString()).toBe('2026-11-22T10:40:00.000Z');
    expect(parse('listed_at', '2026-11-22T11:40:00').ok).toBe(false);
  });

  it('a boolean filter takes true or false only', () => {
    expect(parse('furnished', 'true')).toEqual({ ok: true, value: true });
    expect(parse('furnished', 'false')).toEqual({ ok: true, value: false });
    for (const raw of ['1', 'yes', 'TRUE', '']) expect(parse('furnished', raw), raw).toEqual({ ok: false, message: 'must be true or false' });
  });

  it('an integer filter refuses a decimal; a decimal filter takes one', () => {
    expect(parse('rooms', '3')).toEqual({ ok: true, value: 3 });
    expect(parse('rooms', '3.5')).toEqual({ ok: false, message: 'must be an integer' });
    expect(parse('price', '3.5')).toEqual({ ok: true, value: 3.5 });
  });

  it('a select filter takes one of the option values, not a label', () => {
    expect(parse('kind', 'house')).toEqual({ ok: true, value: 'house' });
    expect(parse('kind', 'House')).toEqual({ ok: false, message: 'is not included in the list' });
  });

  it('text, long text and tags take any text without a NUL character', () => {
    for (const name of ['title', 'summary', 'features']) {
      expect(parse(name, 'any text, even %_')).toEqual({ ok: true, value: 'any text, even %_' });
      expect(parse(name, 'nul\u0000').ok).toBe(false);
    }
  });
});

describe('filter value schemas', () => {
  it('describe each value as the query string carries it', () => {
    expect(schema('title')).toEqual({ type: 'string' });
    expect(schema('rooms')).toEqual({ type: 'integer' });
    expect(schema('price')).toEqual({ type: 'number' });
    expect(schema('furnished')).toEqual({ type: 'boolean' });
    expect(schema('available_on')).toEqual({ type: 'string', format: 'date' });
    expect(schema('listed_at')).toEqual({ type: 'string', format: 'date-time' });
    expect(schema('kind')).toEqual({ type: 'string', enum: ['flat', 'house'] });
    expect(schema('agent')).toEqual({ type: 'integer' });
    expect(schema('id')).toEqual({ type: 'integer' });
  });
});

describe('which fields may be filtered', () => {
  it('column fields of a type with filters, unless filterable: false', () => {
    const filterable = listing.fields.filter((f) => f.filterable).map((f) => f.name);
    expect(filterable).toEqual(['id', 'title', 'summary', 'rooms', 'price', 'furnished', 'available_on', 'listed_at', 'kind', 'features', 'agent']);
  });

  it('never a password, a key_value, an association count, or a field that opted out', () => {
    for (const name of ['code', 'extras', 'viewings', 'secret']) expect(target(name).filterable, name).toBe(false);
  });
});

describe('which fields may be sorted', () => {
  it('a column field of a sortable type unless it opted out; never an association, long text, tags, an object or a password', () => {
    expect(listing.fields.filter((f) => f.sortable).map((f) => f.name)).toEqual(['id', 'title', 'rooms', 'price', 'furnished', 'available_on', 'listed_at', 'kind', 'secret']);
    for (const name of ['agent', 'viewings', 'code', 'features', 'extras', 'summary']) expect(target(name).sortable, name).toBe(false);
  });

  it('opting out of sorting does not opt out of filtering, and the other way round', () => {
    class TwoWaysResource extends Resource {
      fields() {
        return [field.id(), field.text('a', { sortable: false }), field.text('b', { filterable: false })];
      }
    }
    const two = compileResources([TwoWaysResource]).get('TwoWays')!;
    expect([two.fieldsByName.get('a')!.sortable, two.fieldsByName.get('a')!.filterable]).toEqual([false, true]);
    expect([two.fieldsByName.get('b')!.sortable, two.fieldsByName.get('b')!.filterable]).toEqual([true, false]);
  });
});
