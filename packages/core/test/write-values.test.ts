import { describe, expect, it } from 'vitest';
import { Resource, compileResources, field, parseWriteValues, type ParsedWrite } from '@panel/core';

class PersonResource extends Resource {
  static override resourceName = 'Person';
  fields() {
    return [field.id(), field.text('name')];
  }
}
class VenueResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}
class TicketResource extends Resource {
  fields() {
    return [field.id(), field.belongsTo('event')];
  }
}
/** One field of each write format, plus fields a write must ignore. */
class EventResource extends Resource {
  fields() {
    return [
      field.id(),
      field.text('name', { required: true }),
      field.text('notes'),
      field.integer('seats'),
      field.decimal('fee'),
      field.boolean('open'),
      field.date('starts_on'),
      field.datetime('starts_at'),
      field.belongsTo('venue'),
      field.belongsTo('organizer', { resource: 'Person', required: true }),
      field.text('code', { hideOn: 'edit' }),
      field.text('internal', { onlyOn: 'show' }),
      field.hasMany('tickets'),
      field.datetime('created_at', { hideOn: ['new', 'edit'] }),
    ];
  }
}

const event = compileResources([PersonResource, VenueResource, TicketResource, EventResource]).get('Event')!;
/** The smallest valid create body: the two required fields. */
const REQUIRED = { name: 'Launch', organizer_id: 1 };

const create = (attributes: Record<string, unknown>): ParsedWrite => parseWriteValues(event, 'new', { ...REQUIRED, ...attributes });
const update = (attributes: Record<string, unknown>): ParsedWrite => parseWriteValues(event, 'edit', attributes);

/** Expects one field's value to be accepted as `stored`. */
function accepts(key: string, value: unknown, column: string, stored: unknown = value): void {
  const { values, errors } = create({ [key]: value });
  expect(errors).toEqual({});
  expect(values[column]).toEqual(stored);
}

/** Expects one field's value to be refused with a message on `fieldName`, and not stored. */
function refuses(key: string, value: unknown, fieldName: string, message: string): void {
  const { values, errors } = create({ [key]: value });
  expect(errors).toEqual({ [fieldName]: [message] });
  expect(values).not.toHaveProperty(key);
}

describe('parseWriteValues: the spec\'s write value formats', () => {
  it('reads "text / string: JSON string"', () => {
    accepts('notes', 'Bring snacks', 'notes');
    refuses('notes', 42, 'notes', 'must be a string');
    refuses('notes', ['a'], 'notes', 'must be a string');
  });

  it('refuses a string with a NUL character, which PostgreSQL text cannot hold', () => {
    refuses('notes', 'a\u0000b', 'notes', 'must not contain a NUL character');
  });

  it('reads "number: JSON number (integer or decimal)"', () => {
    accepts('seats', 120, 'seats');
    accepts('seats', -3, 'seats');
    accepts('fee', 12.5, 'fee');
    accepts('fee', 7, 'fee');
    refuses('seats', 1.5, 'seats', 'must be an integer');
    refuses('seats', 2 ** 53, 'seats', 'must be an integer');
    refuses('seats', '12', 'seats', 'is not a number');
    refuses('fee', '12.50', 'fee', 'is not a number');
    refuses('fee', true, 'fee', 'is not a number');
  });

  it('reads "boolean: true / false" and nothing else', () => {
    accepts('open', true, 'open');
    accepts('open', false, 'open');
    for (const value of ['true', 'false', 1, 0, 'yes']) refuses('open', value, 'open', 'must be true or false');
  });

  it('reads "date: string YYYY-MM-DD" when it is a real calendar date', () => {
    accepts('starts_on', '2026-11-22', 'starts_on');
    accepts('starts_on', '2024-02-29', 'starts_on');
    for (const value of ['2026-02-30', '2023-02-29', '2026-13-01', '2026-1-5', '22/11/2026', '2026-11-22T10:00:00Z', 20261122]) {
      refuses('starts_on', value, 'starts_on', 'must be a date in YYYY-MM-DD format');
    }
  });

  it('accepts a valid date in the years 0001–0099', () => {
    accepts('starts_on', '0050-06-15', 'starts_on');
  });

  it('reads "datetime: ISO 8601 string with zone" as the instant it names', () => {
    accepts('starts_at', '2026-11-22T10:40:10.397Z', 'starts_at', new Date('2026-11-22T10:40:10.397Z'));
    accepts('starts_at', '2026-11-22T11:40:10+01:00', 'starts_at', new Date('2026-11-22T10:40:10Z'));
    accepts('starts_at', '2026-11-22T05:40-05:00', 'starts_at', new Date('2026-11-22T10:40:00Z'));
    accepts('starts_at', '2026-11-22T11:40+0100', 'starts_at', new Date('2026-11-22T10:40:00Z'));
  });

  it('refuses a zone of hours alone (±HH), which is not one of the accepted forms', () => {
    refuses('starts_at', '2026-11-22T11:40+01', 'starts_at', 'must be an ISO 8601 datetime with a time zone, such as 2026-11-22T10:40:00Z');
  });

  it('refuses a datetime without a zone, which the server would read in its own time zone', () => {
    const message = 'must be an ISO 8601 datetime with a time zone, such as 2026-11-22T10:40:00Z';
    for (const value of ['2026-11-22T10:40:10', '2026-11-22', '2026-11-22 10:40:10Z', 'yesterday', 1795344000000]) refuses('starts_at', value, 'starts_at', message);
  });

  it('refuses a datetime on a day the calendar does not have (2026-02-30T10:00:00Z is not stored as 2026-03-02)', () => {
    refuses('starts_at', '2026-02-30T10:00:00Z', 'starts_at', 'must be an ISO 8601 datetime with a time zone, such as 2026-11-22T10:40:00Z');
  });

  it('reads "belongs_to: the foreign key, as <association>_id: integer" (a positive one)', () => {
    accepts('venue_id', 7, 'venue_id');
    for (const value of [0, -1, 1.5, '7', { id: 7 }]) refuses('venue_id', value, 'venue', 'must be the id of a record (a positive integer)');
  });

  it('ignores a belongs_to sent under its field name instead of <name>_id', () => {
    expect(create({ venue: 7 })).toEqual({ values: { name: 'Launch', organizer_id: 1 }, errors: {} });
  });

  it('keys the values by column and the messages by field name', () => {
    const { values, errors } = create({ venue_id: 'x', seats: 3 });
    expect(values).toEqual({ name: 'Launch', organizer_id: 1, seats: 3 });
    expect(errors).toEqual({ venue: ['must be the id of a record (a positive integer)'] });
  });
});

describe('parseWriteValues: required fields ("can\'t be blank")', () => {
  it('refuses a create that leaves a required field out', () => {
    expect(parseWriteValues(event, 'new', {}).errors).toEqual({ name: ["can't be blank"], organizer: ["can't be blank"] });
  });

  it('accepts an update that leaves a required field out: "PATCH … { <changed fields> } (partial update)"', () => {
    expect(update({ seats: 4 })).toEqual({ values: { seats: 4 }, errors: {} });
  });

  it('refuses null for a required field on create and on update', () => {
    expect(create({ name: null, organizer_id: null }).errors).toEqual({ name: ["can't be blank"], organizer: ["can't be blank"] });
    expect(update({ name: null, organizer_id: null }).errors).toEqual({ name: ["can't be blank"], organizer: ["can't be blank"] });
  });

  it('refuses an empty or whitespace-only string for a required text field on any write', () => {
    expect(create({ name: '' }).errors).toEqual({ name: ["can't be blank"] });
    expect(update({ name: '   ' }).errors).toEqual({ name: ["can't be blank"] });
  });

  it('stores null for an optional field sent as null, and keeps an optional empty string', () => {
    expect(update({ notes: null, seats: null, open: null, starts_on: null, starts_at: null, venue_id: null }).values).toEqual({
      notes: null,
      seats: null,
      open: null,
      starts_on: null,
      starts_at: null,
      venue_id: null,
    });
    expect(update({ notes: '' }).values).toEqual({ notes: '' });
  });

  it('refuses an empty string for an optional number rather than storing null', () => {
    expect(update({ seats: '' }).errors).toEqual({ seats: ['is not a number'] });
  });
});

describe('parseWriteValues: keys a write ignores ("other keys in the body are ignored, as Rails strong parameters do")', () => {
  it('ignores keys that are no field', () => {
    expect(create({ admin: true, __proto__x: 1, organizer: 3 })).toEqual({ values: REQUIRED, errors: {} });
  });

  it('ignores the id, association counts and fields off the form (created_at, a show-only field)', () => {
    expect(create({ id: 99, tickets: 3, tickets_id: 3, created_at: '2026-01-01T00:00:00Z', internal: 'secret' })).toEqual({ values: REQUIRED, errors: {} });
  });

  it('reads a field hidden on edit on create only: "Writable fields are those visible on the new view (create) / edit view (update)"', () => {
    expect(create({ code: 'EV-1' }).values).toHaveProperty('code', 'EV-1');
    expect(update({ code: 'EV-1' })).toEqual({ values: {}, errors: {} });
  });

  it('ignores a wrongly typed value for a field the view does not write, instead of refusing it', () => {
    expect(update({ code: 42, id: 'x' })).toEqual({ values: {}, errors: {} });
  });

  it('does not read inherited properties as attributes', () => {
    const attributes = Object.create({ notes: 'inherited' }) as Record<string, unknown>;
    expect(parseWriteValues(event, 'edit', attributes)).toEqual({ values: {}, errors: {} });
  });
});
