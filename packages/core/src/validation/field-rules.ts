import type { CompiledField } from '../resources/compiled-types.js';
import type { FieldRules } from '../fields/field-types.js';
import type { RecordErrors } from './record-errors.js';
import { characters } from './characters.js';

export type { FieldRules };

/**
 * Checks the rules of one field against a value already parsed to its type. Blank values are
 * left to `required`.
 */
export function checkFieldRules(field: CompiledField, value: unknown, errors: RecordErrors): void {
  if (value === null || value === undefined) return;
  const rules = field.definition.options;
  if (typeof value === 'string') {
    const length = characters(value);
    if (rules.maxLength !== undefined && length > rules.maxLength) errors.add(field.name, `is too long (maximum is ${rules.maxLength} characters)`);
    if (rules.minLength !== undefined && length < rules.minLength) errors.add(field.name, `is too short (minimum is ${rules.minLength} characters)`);
    if (rules.format !== undefined && !new RegExp(rules.format.source, rules.format.flags.replace('g', '')).test(value)) errors.add(field.name, 'is invalid');
  }
  if (typeof value === 'number') {
    if (rules.min !== undefined && value < rules.min) errors.add(field.name, `must be greater than or equal to ${rules.min}`);
    if (rules.max !== undefined && value > rules.max) errors.add(field.name, `must be less than or equal to ${rules.max}`);
  }
  if (rules.in !== undefined && !rules.in.includes(value as string | number | boolean)) errors.add(field.name, 'is not included in the list');
}
