import { expect, it } from 'vitest';
import Fastify from 'fastify';
import { operations, readableRecordsFor, unlistedResources, type CompiledResource, type RecordRow, type View } from '@panel/core';
import { mountPanelApi, pagination } from '@panel/api';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

/** A record as the default serializers build it (one key per field visible on the view), for JSON.stringify. */
function plainRecord(resource: CompiledResource, row: RecordRow, view: View): Record<string, unknown> {
  return Object.fromEntries(resource.fieldsOn(view).map((field) => [field.name, field.kind.serialize({ field, row, view })]));
}

const admin = { id: 1, name: 'Ada Admin', admin: true };

describeOnEachDatabase('response schemas derived from the fields ("Fastify compiles the serializer"; the bodies stay byte-identical)', (demo) => {
  it('gives every route a compiled schema for its success body and the error envelopes', async () => {
    const schemas = new Map<string, Record<string, unknown>>();
    const app = Fastify();
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) schemas.set(`${method} ${route.url}`, (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {});
    });
    await app.register(mountPanelApi, { panel: demo().panel });
    await app.ready();
    const index = schemas.get('GET /api/resources/v1/blog_posts') as Record<string, { properties: Record<string, { items?: { properties: object } }> }>;
    expect(Object.keys(index).sort()).toEqual(['200', '400', '401', '404', '413', '415', '422', '500']);
    expect(Object.keys(index['200']!.properties)).toEqual(['records', 'pagination']);
    expect(Object.keys(index['200']!.properties.records!.items!.properties)).toEqual(demo().panel.resource('BlogPost').fieldsOn('index').map((f) => f.name));
    expect(Object.keys(schemas.get('POST /api/resources/v1/users')!)).toContain('201');
    await app.close();
  });

  it('answers every resource\'s index and show with exactly the bytes JSON.stringify gives for the default serialization', async () => {
    const { panel, app } = demo();
    for (const resource of panel.resources.values()) {
      const url = `/api/resources/v1/${resource.naming.routeKey}`;
      // The route's actor: ProductsController serves index and show without authentication (no user);
      // labels and counts follow what that actor may list (the same functions the API's stage asks).
      const actor = resource.name === 'Product' ? null : admin;
      const readable = readableRecordsFor(panel.authorization!, actor, await unlistedResources(panel.authorization!, actor, [...panel.resources.values()]));
      const page = await operations.list({ panel, resource, actor, readable, perPage: 100, sort: { column: 'id', direction: 'asc' } });
      const index = await app.inject({ url: `${url}?per_page=100&sort_by=id&sort_direction=asc`, headers: ADMIN });
      expect(index.body, url).toBe(JSON.stringify({ records: page.rows.map((row) => plainRecord(resource, row, 'index')), pagination: pagination(1, 100, page.totalCount) }));
      for (const row of page.rows.slice(0, 5)) {
        const shown = await operations.show({ panel, resource, actor, readable, id: row.id as number });
        expect((await app.inject({ url: `${url}/${String(row.id)}`, headers: ADMIN })).body, `${url}/${String(row.id)}`).toBe(JSON.stringify({ record: plainRecord(resource, shown, 'show') }));
      }
    }
  });
});
