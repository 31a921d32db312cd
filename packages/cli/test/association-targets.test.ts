// Issue 21: "Field types own their behaviour: … its CLI check" — `generate --check` asks the
// field type module whether a builder declares an association, so every association type is
// checked for an unknown target, `hasAndBelongsToMany` included (its list once missed it).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPanelApi } from './support/run-panel-api.js';
import { tempApps } from './support/temp-apps.js';

const apps = tempApps();
afterAll(async () => apps.removeAll());

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, code] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), code);
  }
}

const resource = (className: string, fields: string) =>
  `import { Resource, field } from '@panel/core';\n\nexport default class ${className} extends Resource {\n  override fields() {\n    return [\n${fields}\n    ];\n  }\n}\n`;

describe('panel-api generate --check: an association of any type whose target does not exist', () => {
  it('names the file and line of a hasAndBelongsToMany and a hasOne whose target is unknown', async () => {
    const root = await apps.empty();
    await write(root, {
      'app/panel/resources/tag.ts': resource('TagResource', "      field.id(),\n      field.text('name'),"),
      'app/panel/resources/post.ts': resource('PostResource', "      field.id(),\n      field.hasAndBelongsToMany('tgas'),\n      field.hasAndBelongsToMany('labels', { resource: 'Tag' }),\n      field.hasOne('cover'),"),
    });
    await runPanelApi(['generate', '--root', root]);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([
      `app/panel/resources/post.ts:7: Resource Post: the field "tgas" points at the resource "Tgas", which does not exist (known resources: Post, Tag). Fix: correct the field name, or pass { resource: '<ResourceName>' } to field.hasAndBelongsToMany('tgas', …).`,
      `app/panel/resources/post.ts:9: Resource Post: the field "cover" points at the resource "Cover", which does not exist (known resources: Post, Tag). Fix: correct the field name, or pass { resource: '<ResourceName>' } to field.hasOne('cover', …).`,
      '2 problems. Fix: correct each file at the line shown.',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('passes once each association names a resource that exists', async () => {
    const root = await apps.empty();
    await write(root, {
      'app/panel/resources/tag.ts': resource('TagResource', "      field.id(),\n      field.text('name'),"),
      'app/panel/resources/post.ts': resource('PostResource', "      field.id(),\n      field.hasAndBelongsToMany('tags'),\n      field.hasAndBelongsToMany('labels', { resource: 'Tag' }),"),
    });
    await runPanelApi(['generate', '--root', root]);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
  });
});
