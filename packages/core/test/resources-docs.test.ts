// docs/resources.md documents every option a field builder accepts (issue 31, finding 11:
// "`resources.md` omits `unique`"). The keys come from the list the unknown-option check refuses
// against (`fieldOptionKeys`, "did you mean"), so an option added without its documentation fails here.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { field, fieldOptionKeys } from '@panel/core';

const PAGE = join(fileURLToPath(new URL('../../../', import.meta.url)), 'docs', 'resources.md');

describe('docs/resources.md, the field options', () => {
  it('names every option key of every field builder as code (`key`)', async () => {
    const page = await readFile(PAGE, 'utf8');
    const documented = new Set([...page.matchAll(/`([A-Za-z_]\w*)`/g)].map((match) => match[1]!));
    const builders = Object.keys(field);
    expect(builders).toContain('text');
    const keys = new Map<string, string[]>();
    for (const builder of builders) for (const key of fieldOptionKeys(builder)) keys.set(key, [...(keys.get(key) ?? []), builder]);
    const missing = [...keys].filter(([key]) => !documented.has(key)).map(([key, by]) => `${key} (field.${by.join(', field.')})`);
    expect(missing, 'option keys docs/resources.md does not name').toEqual([]);
  });

  it('documents `unique` in the options table, with its default and its error message', async () => {
    const page = await readFile(PAGE, 'utf8');
    const row = page.split('\n').find((line) => line.startsWith('| `unique` |'));
    expect(row).toBeDefined();
    expect(row).toContain('`false`');
    expect(row).toContain('has already been taken');
  });

  it('the check that reads the page knows the keys: a typo is refused with the documented name', () => {
    expect(() => field.text('email', { uniqe: true } as never)).toThrow(/unknown option "uniqe"\. Did you mean "unique"\?/);
  });
});
