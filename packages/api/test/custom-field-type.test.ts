import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPanel, defineField, field, Resource, type PanelDatabase } from '@panel/core';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { mountPanelApi } from '../src/index.js';
import { colorField } from './fixtures/observatory/app/panel/field-types/color-field.js';

const ROOT = fileURLToPath(new URL('./fixtures/observatory/', import.meta.url));

describe('a field type from outside the packages ("an unknown type is a boot error, never a silent default")', () => {
  class Comet extends Resource {
    override fields() {
      return [field.id(), defineField('color', 'tail')];
    }
  }

  it('refuses at boot a field whose type no module registers, naming the type and the fix', async () => {
    const database = { db: { selectFrom: () => undefined } } as unknown as PanelDatabase;
    await expect(createPanel({ database, resources: [Comet] })).rejects.toThrow(
      'Resource Comet: the field "tail" has the type "color", which no field type module registers. Fix: pass its module to createPanel({ fieldTypes: [<module made with defineFieldType>] })',
    );
  });

  it('refuses a second module for a type name already registered', async () => {
    const database = { db: { selectFrom: () => undefined } } as unknown as PanelDatabase;
    await expect(createPanel({ database, resources: [Comet], fieldTypes: [{ ...colorField, name: 'text' }] })).rejects.toThrow('the field type "text" is registered twice');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`a fixture app registers its own field type and serves it over HTTP [${kind}]`, () => {
    let database: PanelDatabase;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      await database.db.schema
        .createTable('stars')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .execute();
      await database.db.insertInto('stars').values([{ name: 'Betelgeuse', color: '#ff4500' }, { name: 'Rigel', color: '#9bb0ff' }]).execute();
      const panel = await createPanel({ database, appRoot: ROOT, fieldTypes: [colorField] });
      app = Fastify();
      await app.register(mountPanelApi, { panel });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it('serializes the field with its module on index and show', async () => {
      const index = await app.inject({ url: '/api/resources/v1/stars?sort_by=id' });
      expect(index.statusCode).toBe(200);
      expect(index.json().records).toEqual([
        { id: 1, name: 'Betelgeuse', color: { hex: '#ff4500', rgb: [255, 69, 0] } },
        { id: 2, name: 'Rigel', color: { hex: '#9bb0ff', rgb: [155, 176, 255] } },
      ]);
      expect((await app.inject({ url: '/api/resources/v1/stars/2' })).json()).toEqual({ record: { id: 2, name: 'Rigel', color: { hex: '#9bb0ff', rgb: [155, 176, 255] } } });
    });

    it('parses a write with its module: a good value is stored as parsed, a bad one is a 422 with its message', async () => {
      const created = await app.inject({ method: 'POST', url: '/api/resources/v1/stars', payload: { star: { name: 'Sirius', color: '#AABBCC' } } });
      expect(created.statusCode).toBe(201);
      expect(created.json().record.color).toEqual({ hex: '#aabbcc', rgb: [170, 187, 204] });
      const refused = await app.inject({ method: 'POST', url: '/api/resources/v1/stars', payload: { star: { name: 'Vega', color: 'blue' } } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ errors: { color: ['must be a colour such as #ff8800'] }, message: 'Failed to create Star' });
      const blank = await app.inject({ method: 'PATCH', url: '/api/resources/v1/stars/1', payload: { star: { color: null } } });
      expect(blank.json()).toEqual({ errors: { color: ["can't be blank"] }, message: 'Failed to update Star' });
      expect(await database.db.selectFrom('stars').select('color').where('name', '=', 'Vega').execute()).toEqual([]);
    });

    it('keeps the field out of sort_by, as its module says it does not sort', async () => {
      const response = await app.inject({ url: '/api/resources/v1/stars?sort_by=color' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'sort_by must be one of id, name, instead got "color"' });
    });
  });
}
