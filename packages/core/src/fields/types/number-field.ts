import { defineFieldType } from '../define-field-type.js';
import { orderedFilter, parseFilterInteger, parseFilterNumber } from '../field-filters.js';
import { columnValue, nullable } from './column-value.js';
import { NUMBER_FORM } from '../field-forms.js';
import { PanelConfigError } from '../../errors/panel-errors.js';
import { fieldScale } from '../../resources/column-scales.js';
import { decimalPlaces } from '../decimal-places.js';

/** What a decimal of `scale` places may be, in words: "a whole number", "at most 2 decimal places". */
function placesText(scale: number): string {
  return scale === 0 ? 'a whole number' : `at most ${scale} decimal ${scale === 1 ? 'place' : 'places'}`;
}

/** What a decimal with more places than `scale` is told. */
const scaleMessage = (scale: number) => (scale === 0 ? 'must be a whole number' : `must have ${placesText(scale)}`);

/** What the JSON Schema of a decimal with a declared `scale` says of it. */
const scaleDescription = (scale: number) => `${placesText(scale).replace(/^./, (first) => first.toUpperCase())}.`;

/** An `integer` or `numeric` column (`field.integer`, `field.decimal`), a JSON number either way. */
export const numberField = defineFieldType({
  name: 'number',
  builder: 'field.integer',
  sortable: true,
  compile: ({ options }) => ({ numeric: options.numeric ?? 'integer' }),
  filter: orderedFilter({
    parse: (raw, field) => (field.numeric === 'integer' ? parseFilterInteger(raw) : parseFilterNumber(raw)),
    schema: (field) => ({ type: field.numeric === 'decimal' ? 'number' : 'integer' }),
    cast: (field) => (field.numeric === 'decimal' ? 'numeric' : 'bigint'),
  }),
  form: NUMBER_FORM,
  serialize: (value) => {
    const read = columnValue(value);
    // Past 2^53 the int8 parser gives the digits as text: a JSON number would round them silently.
    if (typeof read === 'string') {
      const { name } = value.field;
      throw new PanelConfigError(`field.integer('${name}') read a value past Number.MAX_SAFE_INTEGER from its bigint column; a JSON number would lose its last digits. Fix: declare it field.bigint('${name}'), answered as a string of every digit.`);
    }
    return read;
  },
  // A declared scale only (the CLI writes the document without a database); never `multipleOf`, which binary floats fail (4.57 / 0.01 is 456.99999999999994).
  schema: (field) => {
    const { min, max, scale } = field.definition.options;
    const places = field.numeric === 'decimal' && scale !== undefined ? { description: scaleDescription(scale) } : {};
    return nullable(field.numeric === 'decimal' ? 'number' : 'integer', { ...(min === undefined ? {} : { minimum: min }), ...(max === undefined ? {} : { maximum: max }), ...places });
  },
  parse: (value, field) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, message: 'is not a number' };
    if (field.numeric === 'integer' && !Number.isSafeInteger(value)) return { ok: false, message: 'must be an integer' };
    // The database would round the places its column cannot keep, silently: what is written must be what show answers.
    const scale = field.numeric === 'decimal' ? fieldScale(field) : undefined;
    if (scale !== undefined && decimalPlaces(value) > scale) return { ok: false, message: scaleMessage(scale) };
    return { ok: true, value };
  },
});
