// Issue 43: "A field type says how it is shown and how a posted form becomes its write value (a
// member of the type module, also available to app types; no switch on type names outside the
// type modules)". These tests hold each built-in type's `form` to it: a value shown in its
// control and posted back is the value the API would have written, and a string that does not
// convert reaches the type's own `parse`, which answers with the API's message.
import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, Resource, compileResources, field, parseWriteValues, type CompiledField } from '@panel/core';

class OwnerResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}
class ThingResource extends Resource {
  fields() {
    return [
      field.id(),
      field.text('name'),
      field.textarea('notes'),
      field.markdown('story'),
      field.integer('seats'),
      field.decimal('fee'),
      field.boolean('open'),
      field.date('starts_on'),
      field.datetime('starts_at'),
      field.belongsTo('owner'),
      field.select('status', { options: ['draft', { value: 'live', label: 'Live' }] }),
      field.tags('labels'),
      field.keyValue('specs'),
      field.json('extra'),
      field.password('secret'),
      field.hasMany('parts'),
      field.file('cover'),
    ];
  }
}
class PartResource extends Resource {
  fields() {
    return [field.id(), field.belongsTo('thing')];
  }
}

const thing = compileResources([OwnerResource, ThingResource, PartResource]).get('Thing')!;
const byName = (name: string): CompiledField => thing.fieldsByName.get(name)!;

/** The posted strings a field's control sends for a value the API answered, turned back into a write value. */
const roundTrip = (name: string, value: unknown): unknown => {
  const f = byName(name);
  return f.kind.form!.fromForm!(f.kind.form!.formValue!(value, f), f);
};

/** What the write parser makes of one field's value (the API's own judgement). */
const written = (name: string, value: unknown) => {
  const f = byName(name);
  return parseWriteValues(thing, 'edit', { [f.writeKey]: value }, [f]);
};

describe('field types on forms', () => {
  it('every built-in type has a form: how it is shown, and a control unless it is never written', () => {
    for (const kind of BUILTIN_FIELD_TYPES) {
      expect(typeof kind.form?.display, kind.name).toBe('function');
      if (kind.writable) expect([typeof kind.form?.control, typeof kind.form?.fromForm, typeof kind.form?.formValue], kind.name).toEqual(['function', 'function', 'function']);
    }
  });

  it('a value shown in its control and posted back unchanged is the value the API answered (what a JSON body would carry)', () => {
    const answered: Record<string, unknown> = {
      name: 'Gardens',
      notes: 'line one\nline two',
      story: '# Title',
      seats: 12,
      fee: 24.5,
      open: true,
      starts_on: '2026-01-02',
      starts_at: '2026-01-02T09:30:15.000Z',
      status: 'live',
      labels: ['a', 'b c'],
      specs: { weight: '1 kg' },
      extra: { nested: { n: 1 } },
    };
    for (const [name, value] of Object.entries(answered)) {
      const back = roundTrip(name, value);
      const parsed = written(name, back);
      expect(Object.keys(parsed.errors).length === 0, `${name}: ${JSON.stringify(parsed.errors)}`).toBe(true);
    }
    expect(roundTrip('open', false)).toBe(false);
    expect(roundTrip('owner', { id: 3, label: 'Ada' })).toBe(3);
    expect(roundTrip('starts_at', '2026-01-02T09:30:15.000Z')).toBe('2026-01-02T09:30:15Z');
    expect(roundTrip('labels', ['a', 'b c'])).toEqual(['a', 'b c']);
    expect(roundTrip('specs', { weight: '1 kg' })).toEqual({ weight: '1 kg' });
  });

  it('an empty number, date, choice, record or JSON control is null (no value), an unticked checkbox false, an empty password left out (the stored one is kept)', () => {
    for (const name of ['seats', 'fee', 'starts_on', 'starts_at', 'owner', 'status', 'specs']) {
      const f = byName(name);
      expect(f.kind.form!.fromForm!([''], f), name).toBeNull();
    }
    expect(byName('open').kind.form!.fromForm!([], byName('open'))).toBe(false);
    expect(byName('open').kind.form!.fromForm!(['false', 'true'], byName('open'))).toBe(true);
    expect(byName('secret').kind.form!.fromForm!([''], byName('secret'))).toBeUndefined();
    expect(byName('secret').kind.form!.formValue!('anything', byName('secret'))).toEqual(['']);
    // A file control posts upload ids: the last for `file`; none chosen leaves the file as it is.
    expect(byName('cover').kind.form!.fromForm!(['', 'up_first', 'up_last'], byName('cover'))).toBe('up_last');
    expect(byName('cover').kind.form!.fromForm!([''], byName('cover'))).toBeUndefined();
  });

  it('a string that does not convert reaches the type, which refuses it with the API\'s message', () => {
    const messages = (name: string, typed: string) => written(name, byName(name).kind.form!.fromForm!([typed], byName(name))).errors;
    expect(messages('seats', 'twelve')).toEqual({ seats: ['is not a number'] });
    expect(messages('seats', '12.5')).toEqual({ seats: ['must be an integer'] });
    expect(messages('starts_on', '2026-02-30')).toEqual({ starts_on: ['must be a date in YYYY-MM-DD format'] });
    expect(messages('owner', 'Ada')).toEqual({ owner: ['must be the id of a record (a positive integer)'] });
    expect(messages('status', 'gone')).toEqual({ status: ['is not included in the list'] });
    expect(messages('specs', '{not json')).toEqual({ specs: ['must be an object'] });
    expect(messages('specs', '{"weight": 1}')).toEqual({ specs: ['must map each key to a string'] });
  });

  it('shows each value as data a screen draws: text, yes/no, a record link, a count, a list, files, JSON', () => {
    const display = (name: string, value: unknown) => byName(name).kind.form!.display(value, byName(name));
    expect(display('name', 'Gardens')).toEqual({ kind: 'text', text: 'Gardens' });
    expect(display('name', null)).toEqual({ kind: 'empty' });
    expect(display('notes', 'a\nb')).toEqual({ kind: 'multiline', text: 'a\nb' });
    expect(display('open', false)).toEqual({ kind: 'yes_no', value: false });
    expect(display('status', 'live')).toEqual({ kind: 'text', text: 'Live' });
    expect(display('starts_at', '2026-01-02T09:30:15.000Z')).toEqual({ kind: 'text', text: '2026-01-02 09:30 UTC' });
    expect(display('owner', { id: 3, label: null })).toEqual({ kind: 'record', id: 3, label: null });
    expect(display('parts', { count: 4 })).toEqual({ kind: 'count', count: 4 });
    expect(display('labels', ['a'])).toEqual({ kind: 'list', items: ['a'] });
    expect(display('specs', { a: 'b' })).toEqual({ kind: 'json', text: '{\n  "a": "b"\n}' });
    expect(display('cover', { filename: 'c.png', content_type: 'image/png', byte_size: 3, url: '/f/c.png' })).toEqual({ kind: 'files', files: [{ filename: 'c.png', contentType: 'image/png', byteSize: 3, url: '/f/c.png' }] });
  });
});
