import { expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { writableFields } from '@panel/core';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** Values of every JSON type, with the shapes a write format expects among them. */
const plausibleValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 300 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: -3, max: 8 }),
  fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
);

describeOnEachDatabase('random write bodies get 201/200/400/422 and a refused write changes nothing', (demo) => {
  const resources = () => [...demo().panel.resources.values()];

  /** A digest of every row of a table, to see that a refused write left it as it was. */
  const tableDigest = async (table: string) => {
    const { rows } = await sql<{ digest: string | null }>`select md5(string_agg(t::text, '|' order by t.id)) as digest from ${sql.table(table)} t`.execute(demo().database.db);
    return rows[0]?.digest ?? null;
  };

  it('holds for create and update of every demo resource', async () => {
    for (const resource of resources()) {
      const writeKeys = writableFields(resource, 'new').map((f) => f.writeKey);
      const attributes = fc.dictionary(fc.oneof(fc.constantFrom(...writeKeys), fc.string({ maxLength: 8 })), plausibleValue, { maxKeys: writeKeys.length + 2 });
      const body = fc.oneof(
        { weight: 6, arbitrary: attributes.map((a) => ({ [resource.naming.singularKey]: a })) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      );
      const { records } = (await demo().app.inject({ method: 'GET', url: `/api/resources/v1/${resource.naming.routeKey}?per_page=1&sort_by=id&sort_direction=asc`, headers: ADMIN })).json();
      const existingId = records[0].id as number;

      await fc.assert(
        fc.asyncProperty(body, fc.boolean(), async (payload, isUpdate) => {
          const before = await tableDigest(resource.table);
          const response = await demo().app.inject({
            method: isUpdate ? 'PATCH' : 'POST',
            url: `/api/resources/v1/${resource.naming.routeKey}${isUpdate ? `/${existingId}` : ''}`,
            headers: { ...ADMIN, 'content-type': 'application/json' },
            payload: JSON.stringify(payload),
          });
          expect([200, 201, 400, 422], `${resource.name} ${response.body}`).toContain(response.statusCode);
          expect(response.headers['content-type']).toMatch(/^application\/json/);
          if (response.statusCode === 400 || response.statusCode === 422) expect(await tableDigest(resource.table)).toBe(before);
          if (response.statusCode === 422) expect(Object.keys(response.json())).toEqual(['errors', 'message']);
        }),
        { numRuns: 40, seed: Number(process.env.PANEL_PROPERTY_SEED ?? 20261122) },
      );
    }
  }, 120_000);
});
