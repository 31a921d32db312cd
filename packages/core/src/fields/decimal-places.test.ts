// "Decimals are silently rounded to the column's scale, so values do not round-trip." The rule:
// a decimal field refuses a value with more decimal places than its scale keeps, counted on the
// shortest decimal text that reads back as the same JavaScript number.
import { describe, expect, it } from 'vitest';
import type { CompiledField } from '../resources/compiled-types.js';
import { decimalPlaces } from './decimal-places.js';
import { field } from './field-builders.js';
import { numberField } from './types/number-field.js';

/** A compiled decimal field as a resource compiles `definition`. */
function compiledDecimal(definition: ReturnType<typeof field.decimal>): CompiledField {
  return { name: definition.name, definition, numeric: 'decimal', extra: {} } as unknown as CompiledField;
}

describe('decimal places of a JavaScript number, on its shortest round-trip text', () => {
  it('counts the places of plain and exponent texts: 4.5 has 1, 1e-7 has 7, 0.1 + 0.2 has 17, 1e21 has none', () => {
    expect(decimalPlaces(4.5)).toBe(1);
    expect(decimalPlaces(4.57)).toBe(2);
    expect(decimalPlaces(-4.567)).toBe(3);
    expect(decimalPlaces(12)).toBe(0);
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(1.5e-7)).toBe(8);
    expect(decimalPlaces(0.1 + 0.2)).toBe(17);
    expect(decimalPlaces(1e21)).toBe(0);
  });
});

describe('field.decimal with a scale: "must have at most 2 decimal places"', () => {
  const price = compiledDecimal(field.decimal('price', { scale: 2 }));

  it('accepts a value its scale keeps (4.5, 4.57, 12345678.99)', () => {
    for (const value of [4.5, 4.57, 12345678.99, 0, -3]) expect(numberField.parse!(value, price)).toEqual({ ok: true, value });
  });

  it('refuses one it would round (4.567, 1e-7, 0.1 + 0.2, 12345678.999) with the number of places', () => {
    for (const value of [4.567, 1e-7, 0.1 + 0.2, 12345678.999]) expect(numberField.parse!(value, price)).toEqual({ ok: false, message: 'must have at most 2 decimal places' });
    expect(numberField.parse!(0.5, compiledDecimal(field.decimal('whole', { scale: 0 })))).toEqual({ ok: false, message: 'must be a whole number' });
    expect(numberField.parse!(0.25, compiledDecimal(field.decimal('tenths', { scale: 1 })))).toEqual({ ok: false, message: 'must have at most 1 decimal place' });
  });

  it('without a scale (a numeric column without one) accepts any finite number', () => {
    expect(numberField.parse!(0.1 + 0.2, compiledDecimal(field.decimal('ratio')))).toEqual({ ok: true, value: 0.1 + 0.2 });
  });

  it('refuses a scale that is not a whole number from 0 to 1000 at definition, naming the option and the fix', () => {
    expect(() => field.decimal('price', { scale: -1 })).toThrow("field.decimal('price'): the scale option must be a whole number from 0 to 1000 (the decimal places its numeric column keeps), instead got -1. Fix: declare the column's scale, 2 for numeric(10, 2).");
    expect(() => field.integer('pages', { scale: 2 } as never)).toThrow(/unknown option "scale"/);
  });
});

describe('the JSON Schema of a decimal says its declared scale', () => {
  it('as a description ("At most 2 decimal places."), never multipleOf: 4.57 is no binary multiple of 0.01, and a validator would refuse it', () => {
    for (const mode of ['read', 'write'] as const) {
      const schema = numberField.schema(compiledDecimal(field.decimal('price', { scale: 2, min: 0 })), mode);
      expect(schema).toEqual({ type: ['number', 'null'], minimum: 0, description: 'At most 2 decimal places.' });
    }
    expect(numberField.schema(compiledDecimal(field.decimal('ratio')), 'write')).toEqual({ type: ['number', 'null'] });
  });
});
