import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelDatabase } from '@panel/core';
import { openTestDatabase } from '@panel/test-support';
import { AUTHORIZED, buildLibraryApp, prepareLibrary } from './library-app.js';

// The document's routes hold no data: one database kind is enough here (the demo's suites run both).
describe('the OpenAPI document on a mount: who may read it, and mistakes in the openapi option', () => {
  let database: PanelDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await prepareLibrary(database);
  });
  afterAll(async () => database?.close());

  it('follows the mount path and documents the per_page default and the clamp from the config and the mount defaults ("the document describes the clamp instead of a maximum")', async () => {
    const { app } = await buildLibraryApp(database, { ...AUTHORIZED, perPage: 5, maxPerPage: 20 }, { at: '/admin/api', defaults: { per_page: '7' } });
    const document = (await app.inject({ url: '/admin/api/resources/v1/openapi.json' })).json();
    const perPage = document.paths['/admin/api/resources/v1/books'].get.parameters.find((p: { name: string }) => p.name === 'per_page');
    expect(perPage.schema).toEqual({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 7 });
    expect(perPage.description).toContain('clamps it to 20');
    expect(document.components.securitySchemes).toBeUndefined();
    await app.close();
  });

  it('"never behind an auth the integrator did not choose": public: false draws no route, a function refuses with a 404', async () => {
    const { app: hidden } = await buildLibraryApp(database, AUTHORIZED, { openapi: { public: false } });
    expect((await hidden.inject({ url: '/api/resources/v1/openapi.json' })).statusCode).toBe(404);
    await hidden.close();
    const { app: gated } = await buildLibraryApp(database, AUTHORIZED, { openapi: { public: (request) => request.headers['x-staff'] === 'yes' } });
    expect((await gated.inject({ url: '/api/resources/v1/openapi.json' })).json()).toEqual({ error: 'Not Found' });
    expect((await gated.inject({ url: '/api/resources/v1/openapi.json', headers: { 'x-staff': 'yes' } })).statusCode).toBe(200);
    await gated.close();
  });

  it('fails at boot on a security requirement naming an undeclared scheme, or a scheme without a type', async () => {
    await expect(buildLibraryApp(database, AUTHORIZED, { openapi: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } }, security: [{ token: [] }] } })).rejects.toThrow(
      'mountPanelApi: openapi.security must be a list of requirements naming declared securitySchemes, instead it names "token". Fix: declare the scheme in openapi.securitySchemes, or correct the name.',
    );
    await expect(buildLibraryApp(database, AUTHORIZED, { openapi: { securitySchemes: { key: { in: 'header' } } } })).rejects.toThrow(/openapi.securitySchemes must map names to OpenAPI Security Scheme objects/);
  });
});
