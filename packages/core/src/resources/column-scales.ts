import type { CompiledField } from './compiled-types.js';

/**
 * The scale of each field's `numeric(p, s)` column, as the boot's schema check read it from the
 * catalog: a compiled field is frozen, so what the database says is kept beside it. A
 * `field.decimal` without a `scale` option takes its column's.
 */
const scales = new WeakMap<CompiledField, number>();

/** Records that `field`'s column keeps `scale` decimal places (the schema check calls it at boot). */
export function learnColumnScale(field: CompiledField, scale: number): void {
  scales.set(field, scale);
}

/** The decimal places `field` keeps: its `scale` option, else its column's as read at boot, else undefined (any finite number). */
export function fieldScale(field: CompiledField): number | undefined {
  return field.definition.options.scale ?? scales.get(field);
}
