import type { InferredResource } from './infer-resources.js';

/** The first line of every resource file `init` writes: `--check` compares such files with their tables. */
export const INIT_MARK = '// Written by `panel-api init` from the table';

/** The source of a resource file for an inferred resource (TypeScript, or JavaScript without the `override` keywords). */
export function renderResource(resource: InferredResource, language: 'ts' | 'js'): string {
  const override = language === 'ts' ? 'override ' : '';
  const statics: string[] = [];
  statics.push(`static ${override}table = '${resource.table}';`);
  if (resource.primaryKey !== 'id') statics.push(`static ${override}primaryKey = '${resource.primaryKey}';`);
  if (resource.primaryKeyType !== 'integer') statics.push(`static ${override}primaryKeyType = '${resource.primaryKeyType}';`);
  if (resource.title !== undefined) statics.push(`static ${override}title = '${resource.title}';`);
  const left = resource.leftOut.map((o) => `      // ${o.column}: left out, ${o.reason}.`);
  return [
    `${INIT_MARK} "${resource.table}". Edit it freely: init never overwrites it, and \`init --check\` reports when the table changes.`,
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
