// Issue: "`generate --check` passes a resource with `field.interger(...)`; the server then cannot
// boot. Option typos (`{ requried: true }`) are silently ignored at runtime (a blank title was
// accepted)." The fix: "`--check` … reports unknown field builders and unknown option keys with
// a 'did you mean'".
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const apps = tempApps();
afterAll(() => apps.removeAll());

const BOOK = `import { Resource, field } from '@panel/core';

export default class BookResource extends Resource {
  override fields() {
    return [
      field.id(),
      field.text('title', { requried: true }),
      field.interger('pages'),
      field.belongsTo('author', {
        lable: 'name',
      }),
      field.text('isbn', { ...{ unique: true } }),
    ];
  }
}
`;
const AUTHOR = "import { Resource, field } from '@panel/core';\n\nexport default class AuthorResource extends Resource {\n  override fields() {\n    return [field.id(), field.text('name', { required: true, maxLength: 80 })];\n  }\n}\n";

describe('panel-api generate --check on unknown field builders and option keys', () => {
  it('names the file, line, the unknown name and the closest known one; judges no spread', async () => {
    const root = await apps.empty();
    for (const [path, code] of Object.entries({ 'app/panel/resources/book.ts': BOOK, 'app/panel/resources/author.ts': AUTHOR })) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), code);
    }
    await runPanelApi(['generate', '--root', root]);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.out).toEqual([]);
    expect(run.err[0]).toBe(
      'app/panel/resources/book.ts:7: Resource Book: field.text(\'title\'): unknown option "requried". Did you mean "required"? Fix: use one of hideOn, onlyOn, showOn, required, sortable, column, maxLength, minLength, min, max, format, in, unique, visible, readonly, default, confirm, writableBy, filterable.',
    );
    expect(run.err[1]).toMatch(/^app\/panel\/resources\/book\.ts:8: Resource Book: field\.interger\('pages'\) is not a field builder\. Did you mean field\.integer\? Fix: use one of field\.id, field\.text, .*field\.files\.$/);
    expect(run.err[2]).toMatch(/^app\/panel\/resources\/book\.ts:10: Resource Book: field\.belongsTo\('author'\): unknown option "lable"\. Did you mean "label"\? Fix: use one of .*resource, foreignKey, label, includable\.$/);
    expect(run.err.slice(3)).toEqual(['3 problems. Fix: correct each file at the line shown.']);
    expect(run.exitCode).toBe(1);
  });
});
