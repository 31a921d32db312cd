import { humanize, type CompiledField, type CompiledResource, type FilterOperator } from '@panel/core';
import { withQuery, type QueryPairs } from './resource-paths.js';
import { recordKeyInput } from './record-key-input.js';

/** One control of the filters panel, as the template draws it. */
export interface FilterControl {
  readonly label: string;
  /** `text` (one input), `range` (from and to), `choice` (a select with "Any"). */
  readonly text?: { readonly id: string; readonly name: string; readonly value: string; readonly type: string; readonly inputmode?: string | undefined; readonly hint?: string | undefined };
  readonly range?: { readonly from: FilterInput; readonly to: FilterInput; readonly hint?: string | undefined };
  readonly choice?: { readonly id: string; readonly name: string; readonly options: readonly { value: string; label: string; selected: boolean }[] };
}

interface FilterInput {
  readonly id: string;
  readonly name: string;
  readonly value: string;
  readonly type: string;
  readonly inputmode?: string | undefined;
}

/** An applied filter, with the link that removes it. */
export interface AppliedFilter {
  readonly text: string;
  readonly removeHref: string;
}

const OPERATOR_WORDS: Readonly<Record<FilterOperator, string>> = {
  eq: 'is',
  ne: 'is not',
  lt: 'before or under',
  lte: 'to',
  gt: 'after or over',
  gte: 'from',
  in: 'is one of',
  null: 'is empty:',
  contains: 'contains',
  starts_with: 'starts with',
};

const FILTER_NAME = /^filter\[([^\]]+)\](?:\[([a-z_]+)\])?$/;

/** The value of a query parameter (its last), or ''. */
const queryValue = (pairs: QueryPairs, name: string): string => pairs.filter(([key]) => key === name).at(-1)?.[1] ?? '';

/**
 * The filters panel: one control per field the user may filter (`queryableFields(…).filter`,
 * by write key), chosen from what the field's type answers — its filter's operators and its
 * form control — never from its name: a text-like filter (`contains`) is one input; a value
 * shown as a checkbox is Any/Yes/No; one shown as a select is its options; an ordered value
 * (`gte`/`lte`) is from/to (a date input for dates); anything else is one input for `eq`.
 */
export function filterControls(filterable: ReadonlyMap<string, CompiledField>, pairs: QueryPairs, resources: ReadonlyMap<string, CompiledResource>): FilterControl[] {
  const controls: FilterControl[] = [];
  for (const [key, field] of filterable) {
    const filter = field.kind.filter!;
    const control = field.kind.form?.control?.(field);
    const label = humanize(key);
    const id = `filter-${key}`;
    const name = (operator: FilterOperator) => `filter[${key}][${operator}]`;
    const input = (operator: FilterOperator, suffix = ''): FilterInput => ({ id: `${id}${suffix}`, name: name(operator), value: queryValue(pairs, name(operator)), type: control?.kind === 'date' ? 'date' : 'text', inputmode: control?.inputmode });
    if (filter.operators.includes('contains')) {
      controls.push({ label: `${label} contains`, text: { ...input('contains'), type: 'text' } });
    } else if (control?.kind === 'checkbox' && filter.operators.includes('eq')) {
      const current = queryValue(pairs, name('eq'));
      controls.push({ label, choice: { id, name: name('eq'), options: [{ value: '', label: 'Any', selected: current === '' }, { value: 'true', label: 'Yes', selected: current === 'true' }, { value: 'false', label: 'No', selected: current === 'false' }] } });
    } else if (control?.options !== undefined && filter.operators.includes('eq')) {
      const current = queryValue(pairs, name('eq'));
      controls.push({ label, choice: { id, name: name('eq'), options: [{ value: '', label: 'Any', selected: current === '' }, ...(control.options ?? []).map((option) => ({ ...option, selected: option.value === current }))] } });
    } else if (filter.operators.includes('gte') && filter.operators.includes('lte') && control?.kind !== 'record') {
      const hint = control?.kind === 'datetime' ? 'ISO 8601 with a time zone, such as 2026-01-01T00:00Z.' : undefined;
      controls.push({ label, range: { from: input('gte', '-from'), to: input('lte', '-to'), hint } });
    } else if (filter.operators.includes('eq')) {
      const target = control?.kind === 'record' ? resources.get(control.target!) : undefined;
      controls.push({ label: target ? `${label} (id)` : label, text: { ...input('eq'), inputmode: target ? recordKeyInput(target.key).inputmode : control?.inputmode } });
    }
  }
  return controls;
}

/**
 * What the filters form must carry as hidden fields: the query's search, order and page size,
 * and every filter no control of the form shows (`filter[title][starts_with]`, an `in` list, the
 * `filter[title]=x` shorthand…), so that applying the form changes what its controls say and
 * keeps the rest; a filter goes only by its own remove link.
 */
export function filtersFormHidden(pairs: QueryPairs, controls: readonly FilterControl[]): { name: string; value: string }[] {
  const shown = new Set(controls.flatMap((control) => [control.text?.name, control.choice?.name, control.range?.from.name, control.range?.to.name].filter((name) => name !== undefined)));
  return pairs.filter(([name]) => ['q', 'sort_by', 'sort_direction', 'per_page'].includes(name) || (name.startsWith('filter[') && !shown.has(name))).map(([name, value]) => ({ name, value }));
}

/** The filters of the query, each with a link to the same list without it (and back on page 1). */
export function appliedFilters(pairs: QueryPairs, path: string): AppliedFilter[] {
  const applied: AppliedFilter[] = [];
  for (const [name, value] of pairs) {
    const match = FILTER_NAME.exec(name);
    if (!match) continue;
    const operator = (match[2] ?? 'eq') as FilterOperator;
    applied.push({ text: `${humanize(match[1]!)} ${OPERATOR_WORDS[operator] ?? operator} ${value}`, removeHref: withQuery(path, pairs.filter(([other]) => other !== name), { page: undefined }) });
  }
  return applied;
}

/**
 * A list query with its empty filter and search values dropped, or undefined when it has none:
 * the filters form submits every control, and an empty control means "no filter" (the screen
 * answers a 303 to the query without them, so the URL stays the API's own parameters).
 */
export function withoutEmptyControls(pairs: QueryPairs): QueryPairs | undefined {
  const kept = pairs.filter(([name, value]) => value !== '' || !(name === 'q' || FILTER_NAME.test(name)));
  return kept.length === pairs.length ? undefined : kept;
}
