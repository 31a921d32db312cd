// Issue 21: "Field types own their behaviour: every question now answered by a switch on a type
// name becomes a capability of the type module (is it an association, a file, its constraint
// mapping, its CLI check); a test fails if `packages/*/src` outside `fields/types/` compares a
// field's type to a literal name." This test reads every package source and fails on such a
// comparison, a `case` of a switch on a field's type, or a list of type names to look one up in.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../src/index.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every built-in type name (`belongs_to`) and builder name (`belongsTo`): what a switch would compare with. */
const NAMES: ReadonlySet<string> = new Set(BUILTIN_FIELD_TYPES.flatMap((kind) => [kind.name, ...(kind.builder ? [kind.builder.replace(/^field\./, '')] : [])]));
/** JSON Schema's type names: a list of only these is about schemas, not field types. */
const SCHEMA_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A field's type or builder, as code reads it: `field.type`, `f.type`, `value.field.type`, `definition.type`, `kind.name`, `field.builder`. */
const FIELD_TYPE = String.raw`(?:\b(?:field|f|definition|def)|\.field)\.(?:type|builder)\b|\bkind\.name\b`;
const LITERAL = String.raw`(['"\`])(\w+)\1`;
const COMPARISONS = [new RegExp(`(?:${FIELD_TYPE})\\s*[!=]==?\\s*${LITERAL}`, 'g'), new RegExp(`${LITERAL}\\s*[!=]==?\\s*[\\w.]*?(?:${FIELD_TYPE})`, 'g')];
const SWITCH_ON_TYPE = new RegExp(`switch\\s*\\(\\s*(?:[\\w.]*?)(?:${FIELD_TYPE})\\s*\\)`);
const CASE = /\bcase\s+(['"`])(\w+)\1\s*:/g;
/** A list of two or more string literals (`['file', 'files']`, `new Set([…])`). */
const LIST = /\[\s*((?:(['"`])\w+\2\s*,\s*)+(['"`])\w+\3)\s*,?\s*\]/g;

/** The code of a source text: its comments (and the examples in them) left out. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The field-type switches in one source text, as `"<what>"` strings (empty: none). */
function typeSwitches(source: string): string[] {
  const text = code(source);
  const found: string[] = [];
  for (const pattern of COMPARISONS) {
    for (const match of text.matchAll(pattern)) if (NAMES.has(match[2]!)) found.push(match[0]);
  }
  if (SWITCH_ON_TYPE.test(text)) for (const match of text.matchAll(CASE)) if (NAMES.has(match[2]!)) found.push(match[0]);
  for (const match of text.matchAll(LIST)) {
    const items = [...match[1]!.matchAll(/(['"`])(\w+)\1/g)].map((item) => item[2]!);
    if (items.every((item) => NAMES.has(item)) && items.some((item) => !SCHEMA_TYPES.has(item))) found.push(match[0]);
  }
  return found;
}

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.[cm]?[jt]sx?$/.test(entry.name) && !/\.test\.[cm]?[jt]sx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('field types own their behaviour: no switch on a type name outside packages/core/src/fields/types/', () => {
  it('finds the shapes a switch takes (so the scan below can fail)', () => {
    expect(typeSwitches("if (field.type === 'has_and_belongs_to_many') {")).toHaveLength(1);
    expect(typeSwitches("f.type !== 'id' && x")).toHaveLength(1);
    expect(typeSwitches("if ('file' === value.field.type) return")).toHaveLength(1);
    expect(typeSwitches("const FILE_TYPES = new Set(['file', 'files']);")).toHaveLength(1);
    expect(typeSwitches("const ASSOCIATIONS = new Set(['belongsTo', 'hasMany', 'hasOne']);")).toHaveLength(1);
    expect(typeSwitches("switch (field.type) {\n  case 'belongs_to':\n    return 1;\n  case 'text':\n    return 2;\n}")).toHaveLength(2);
    // Not about field types: JSON Schema types, other names.
    expect(typeSwitches("if (schema.type === 'integer') return; const views = ['index', 'show']; const kinds = ['number', 'integer'];")).toEqual([]);
  });

  it('no package source outside fields/types/ compares a field\'s type to a literal name', async () => {
    const packages = await readdir(join(ROOT, 'packages'));
    const offenders: string[] = [];
    let scanned = 0;
    for (const name of packages) {
      for (const file of await sources(join(ROOT, 'packages', name, 'src')).catch(() => [])) {
        if (file.includes(`${sep}fields${sep}types${sep}`)) continue;
        scanned += 1;
        for (const what of typeSwitches(await readFile(file, 'utf8'))) offenders.push(`${relative(ROOT, file)}: ${what}`);
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(offenders, 'ask the field type module (FieldTypeModule: association, attachments, constraintErrorsOn, compile…) instead').toEqual([]);
  });
});
