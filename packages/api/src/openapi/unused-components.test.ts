import { describe, expect, it } from 'vitest';
import { withoutUnusedComponents } from './unused-components.js';

describe('withoutUnusedComponents ("no unused components")', () => {
  it('keeps what the paths refer to, and what those components refer to in turn; keeps security schemes', () => {
    const document = {
      paths: { '/a': { get: { responses: { 200: { headers: { H: { $ref: '#/components/headers/Used' } }, content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } } } } } },
      components: {
        schemas: { Page: { properties: { item: { $ref: '#/components/schemas/Item' } } }, Item: { type: 'object' }, Orphan: { type: 'string' } },
        headers: { Used: { schema: { type: 'string' } }, Unused: { schema: { type: 'string' } } },
        securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      },
    };
    const pruned = withoutUnusedComponents(document) as { components: Record<string, Record<string, unknown>> };
    expect(Object.keys(pruned.components.schemas!)).toEqual(['Page', 'Item']);
    expect(Object.keys(pruned.components.headers!)).toEqual(['Used']);
    expect(pruned.components.securitySchemes).toEqual(document.components.securitySchemes);
  });
});
