// Issue: "Option typos (`{ requried: true }`) are silently ignored at runtime (a blank title was
// accepted)." The fix: "resource definitions refuse unknown option keys at runtime with the same
// message" as `--check`.
import { describe, expect, it } from 'vitest';
import { didYouMean } from '../errors/did-you-mean.js';
import { field } from './field-builders.js';

describe('field builders refuse an option key they do not take', () => {
  it('"{ requried: true }" throws naming the builder, the field, the key and the closest known key', () => {
    expect(() => field.text('title', { requried: true } as never)).toThrow(
      'field.text(\'title\'): unknown option "requried". Did you mean "required"? Fix: use one of hideOn, onlyOn, showOn, required, sortable, column, maxLength, minLength, min, max, format, in, unique, visible, readonly, default, confirm, writableBy, filterable.',
    );
    expect(() => field.text('title', { requried: true } as never)).toThrow(expect.objectContaining({ code: 'PANEL_ERR_CONFIG' }));
  });

  it('checks each builder against its own options: a belongsTo takes label, a text does not', () => {
    expect(field.belongsTo('author', { label: 'name', resource: 'User' }).options).toEqual({ label: 'name', resource: 'User' });
    expect(() => field.text('title', { label: 'x' } as never)).toThrow(/^field\.text\('title'\): unknown option "label"\. Fix: use one of /);
    expect(() => field.id('id', { lable: 'x' } as never)).toThrow(/^field\.id\('id'\): unknown option "lable"\./);
    expect(field.select('status', { options: ['a'], required: true }).options).toEqual({ options: ['a'], required: true });
    expect(field.integer('pages', { min: 1 }).options).toEqual({ min: 1, numeric: 'integer' });
    expect(field.tags('labels', { maxTags: 3 }).options).toEqual({ maxTags: 3 });
  });

  it('suggests only a close name', () => {
    expect(didYouMean('interger', ['integer', 'text'])).toBe('integer');
    expect(didYouMean('requried', ['required', 'sortable'])).toBe('required');
    expect(didYouMean('colour', ['hideOn', 'required'])).toBeUndefined();
  });
});
