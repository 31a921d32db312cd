// "One place decides: … every path — serializer, write parser, sort, the coming
// filters/search/fields, traversal, OpenAPI — asks the same function. A test fails if a path
// reads the view's fields without it." The function is `fieldAccess` (@panel/core,
// authorization/field-access.ts); this test reads every package source and fails when a file
// not listed below reads a view's fields directly.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The files that may read a view's fields without an actor, each with the reason. Anything
 * that answers, accepts, sorts, filters, searches, selects or traverses fields for a request
 * must ask `fieldAccess` instead.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'packages/core/src/authorization/field-access.ts': 'the one function itself',
  'packages/core/src/resources/compiled-resource.ts': 'defines fieldsOn, and writableFields: the fields some actor may write (fieldAccess narrows them per actor)',
  'packages/core/src/resources/compiled-types.ts': 'declares fieldsOn',
  'packages/core/src/resources/record-schema.ts': 'the JSON Schemas without an actor (the OpenAPI document marks the fields a visible rule may hide as optional)',
  'packages/core/src/records/record-select.ts': 'loads the columns and subqueries the serializer may need; loading is not answering (the serializer asks fieldAccess)',
  'packages/core/src/records/records-repository.ts': 'whether a view reads its own table (how a write reads itself back)',
  'packages/core/src/operations/write-attributes.ts': 'the defaults of create: a readonly field still gets its default, which is the point of it',
  'packages/api/src/routing/draw-routes.ts': 'checks the mount\'s defaults (sort_by) at boot, where there is no actor',
  'packages/api/src/openapi/resource-operations.ts': 'the document\'s sort_by enum, without an actor',
  'packages/api/src/querying/include-modifier.ts': 'the document\'s include parameters (paths, include_fields and include_sort_by enums), without an actor; a request\'s include is read against the graph its actor sees (include-params.ts, IncludeGraph)',
  'packages/api/src/querying/queryable-fields.ts': 'the list parameters without an actor (the OpenAPI document, panel-api routes), and the shared answer when fieldAccess hides nothing from the actor',
};

/** Reading a view's fields: `fieldsOn(` (any receiver). */
const READS_VIEW_FIELDS = /\bfieldsOn\(/;

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('"every path asks the same function" (fieldAccess)', () => {
  it('no package source outside the listed ones reads a view\'s fields without fieldAccess', async () => {
    const packages = await readdir(join(ROOT, 'packages'));
    const offenders: string[] = [];
    let scanned = 0;
    for (const name of packages) {
      for (const file of await sources(join(ROOT, 'packages', name, 'src')).catch(() => [])) {
        scanned += 1;
        const path = relative(ROOT, file);
        if (READS_VIEW_FIELDS.test(await readFile(file, 'utf8')) && ALLOWED[path] === undefined) offenders.push(path);
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(offenders, 'ask fieldAccess(...).readable / queryable / writable instead, or add the file to ALLOWED with the reason').toEqual([]);
  });

  it('the serializer, traversal, sort and writes ask fieldAccess (the controller names it)', async () => {
    const controller = await readFile(join(ROOT, 'packages/api/src/controller/resources-controller.ts'), 'utf8');
    expect(controller).toMatch(/serializeRecord\([^)]*\)[^{]*\{\s*const access = this\.fieldAccess\(\);/);
    // Traversal answers with the target's controller, whose serializeRecord asks fieldAccess.
    expect(controller).toMatch(/records = target\.serializeRecords\(rows, 'index'\)/);
    // Index and traversal read their list parameters in one place (the list modifiers), which sort, filter, search and select by what queryableFields answers from fieldAccess.
    const sort = await readFile(join(ROOT, 'packages/api/src/querying/sort-modifier.ts'), 'utf8');
    expect(sort.match(/sortRequest\(resource, query, queryable\.sort\)/g)).toHaveLength(1);
    expect(controller).toMatch(/queryableFields\(\{ resource, view, access: this\.fieldAccess\(resource\) \}\)/);
    const writes = await readFile(join(ROOT, 'packages/core/src/operations/write-attributes.ts'), 'utf8');
    expect(writes).toContain('await access.writable(action, record)');
  });

  it('every listed file exists and still reads a view\'s fields (the list does not rot)', async () => {
    for (const path of Object.keys(ALLOWED)) expect(READS_VIEW_FIELDS.test(await readFile(join(ROOT, path), 'utf8')), path).toBe(true);
  });
});
