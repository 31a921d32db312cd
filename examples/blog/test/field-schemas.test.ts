import { expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { recordSchema, writeSchema } from '@panel/core';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** A JSON Schema 2020-12 validator with the formats the field types use (date, date-time). */
function validator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  // `contentMediaType` (markdown) is an annotation in 2020-12: allowed, not checked.
  return ajv;
}

describeOnEachDatabase('the JSON Schemas the field type modules give (read and write)', (demo) => {
  it('every record the demo answers on index and show matches the record schema derived from its fields, for every resource', async () => {
    const ajv = validator();
    let checked = 0;
    for (const resource of demo().panel.resources.values()) {
      const url = `/api/resources/v1/${resource.naming.routeKey}`;
      const index = await demo().app.inject({ url: `${url}?per_page=100`, headers: ADMIN });
      expect(index.statusCode, url).toBe(200);
      const onIndex = ajv.compile(recordSchema(resource, 'index'));
      const onShow = ajv.compile(recordSchema(resource, 'show'));
      for (const record of index.json().records) {
        expect(onIndex(record) ? [] : onIndex.errors, `${url} index record ${record.id}`).toEqual([]);
        const show = (await demo().app.inject({ url: `${url}/${record.id}`, headers: ADMIN })).json().record;
        expect(onShow(show) ? [] : onShow.errors, `${url}/${record.id}`).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('a record schema lists exactly the fields of the view, and leaves a write-only password out', () => {
    const user = demo().panel.resource('User');
    const schema = recordSchema(user, 'show') as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(['id', 'name', 'email', 'admin', 'created_at', 'blog_posts', 'profile']);
    expect(schema.properties.created_at).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(schema.properties.profile).toEqual({ type: ['object', 'null'], properties: { id: { type: 'integer' } }, required: ['id'] });
  });

  it('write schemas accept the values the API accepts and refuse the ones it refuses with 422', async () => {
    const ajv = validator();
    const product = ajv.compile(writeSchema(demo().panel.resource('Product'), 'edit'));
    const user = ajv.compile(writeSchema(demo().panel.resource('User'), 'new'));
    expect(writeSchema(demo().panel.resource('Product'), 'edit')).toMatchObject({
      properties: { status: { type: ['string', 'null'], enum: ['draft', 'active', 'archived', null] }, product_category_id: { type: ['integer', 'null'], minimum: 1 } },
    });
    const cases: [Record<string, unknown>, boolean][] = [
      [{ status: 'active', tags: ['a'], specs: { k: 'v' }, price: 1.5, released_on: '2026-01-02' }, true],
      [{ status: 'gone' }, false],
      [{ tags: [1] }, false],
      [{ specs: { k: 1 } }, false],
      [{ released_on: '2026-02-30' }, false],
    ];
    for (const [attributes, valid] of cases) {
      expect(product(attributes), JSON.stringify(attributes)).toBe(valid);
      const response = await demo().app.inject({ method: 'PATCH', url: '/api/resources/v1/products/3', headers: ADMIN, payload: { product: attributes } });
      expect(response.statusCode, JSON.stringify(attributes)).toBe(valid ? 200 : 422);
    }
    expect(user({ name: 'Pat', email: 'pat@example.com', password: 'long enough' })).toBe(true);
    expect(user({ name: 'Pat', email: 'pat@example.com', password: 'short' })).toBe(false);
    expect(user({ name: 'Pat' })).toBe(false);
  });
});
