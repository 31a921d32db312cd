import type { InferredResource } from './infer-resources.js';
import { codeString, jsonString } from '../text/quoting.js';

/** The first line of every resource file `init` writes: `--check` compares such files with their tables. */
export const INIT_MARK = '// Written by `panel-api init` from the table';

/** A name as it is, or as a JSON string when it holds a control character or line break. */
export function printable(name: string): string {
  const unprintable = [...name].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f' || c === '\u2028' || c === '\u2029');
  return unprintable ? jsonString(name) : name;
}

/** The table named by the first line of a file `init` wrote (`INIT_MARK "<table>"`), or undefined. */
export function initMarkTable(text: string): string | undefined {
  if (!text.startsWith(INIT_MARK)) return undefined;
  const literal = /^[^\n]*?("(?:[^"\\\n]|\\.)*")/.exec(text)?.[1];
  try {
    return literal === undefined ? undefined : (JSON.parse(literal) as string);
  } catch {
    return undefined;
  }
}

/** The source of a resource file for an inferred resource (TypeScript, or JavaScript without the `override` keywords). */
export function renderResource(resource: InferredResource, language: 'ts' | 'js'): string {
  const override = language === 'ts' ? 'override ' : '';
  const statics: string[] = [];
  statics.push(`static ${override}table = ${codeString(resource.table)};`);
  if (resource.primaryKey !== 'id') statics.push(`static ${override}primaryKey = ${codeString(resource.primaryKey)};`);
  if (resource.primaryKeyType !== 'integer') statics.push(`static ${override}primaryKeyType = ${codeString(resource.primaryKeyType)};`);
  if (resource.title !== undefined) statics.push(`static ${override}title = ${codeString(resource.title)};`);
  // A column's name may hold a line break, which would end the comment.
  const left = resource.leftOut.map((o) => `      // ${printable(o.column)}: left out, ${o.reason}.`);
  return [
    `${INIT_MARK} ${jsonString(resource.table)}. Edit it freely: init never overwrites it, and \`init --check\` reports when the table changes.`,
    "import { Resource, field } from '@panel/core';",
    '',
    `export default class ${resource.name}Resource extends Resource {`,
    ...statics.map((line) => `  ${line}`),
    '',
    `  ${override}fields() {`,
    '    return [',
    ...resource.fields.map((f) => `      ${f.source},`),
    ...left,
    '    ];',
    '  }',
    '}',
    '',
  ].join('\n');
}
