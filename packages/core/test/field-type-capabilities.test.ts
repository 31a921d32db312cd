import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resource, createPanel, field, openDatabase, runPanelMigrations, type Panel, type PanelDatabase } from '@panel/core';

// "Field types own their behaviour": whether a field is an association, whether it is
// traversable, and whether it holds attached files are capabilities of its type module
// (`field.kind`), which the API, Edition B and the attachments code ask instead of comparing
// type names (docs/architecture.md, "Adding a field type").

class AuthorResource extends Resource {
  fields() {
    return [field.id(), field.text('name'), field.hasMany('books'), field.hasOne('portrait'), field.file('avatar'), field.files('papers')];
  }
}

class BookResource extends Resource {
  fields() {
    return [field.id(), field.text('title'), field.integer('pages'), field.belongsTo('author'), field.hasAndBelongsToMany('shelves')];
  }
}

class PortraitResource extends Resource {
  fields() {
    return [field.id(), field.belongsTo('author')];
  }
}

class ShelfResource extends Resource {
  fields() {
    return [field.id(), field.text('label'), field.hasAndBelongsToMany('books')];
  }
}

let database: PanelDatabase;
let panel: Panel;

beforeAll(async () => {
  database = await openDatabase();
  await runPanelMigrations(database);
  panel = await createPanel({ database, resources: [AuthorResource, BookResource, PortraitResource, ShelfResource] });
}, 60_000);
afterAll(async () => {
  await database?.close();
});

const kindOf = (resource: string, name: string) => panel.resource(resource).fieldsByName.get(name)!.kind;

describe('field type capabilities', () => {
  it('every association type says it is one; only those that list records of their own are traversable', () => {
    for (const [resource, name] of [['Author', 'books'], ['Author', 'portrait'], ['Book', 'author'], ['Book', 'shelves']] as const) {
      expect(kindOf(resource, name).association, `${resource}.${name}`).toBeDefined();
    }
    expect(kindOf('Book', 'author').association?.related).toBeUndefined();
    expect(kindOf('Author', 'books').association?.related).toBeTypeOf('function');
    expect(kindOf('Book', 'shelves').association?.related).toBeTypeOf('function');
  });

  it('file holds one attachment and files many; no other type holds any', () => {
    expect(kindOf('Author', 'avatar').attachments).toBe('one');
    expect(kindOf('Author', 'papers').attachments).toBe('many');
    for (const [resource, name] of [['Author', 'name'], ['Author', 'books'], ['Book', 'pages'], ['Book', 'author']] as const) {
      expect(kindOf(resource, name).attachments, `${resource}.${name}`).toBeUndefined();
    }
  });

  it('a scalar type is neither an association nor a file', () => {
    for (const name of ['id', 'title', 'pages']) {
      expect(kindOf('Book', name).association, name).toBeUndefined();
      expect(kindOf('Book', name).attachments, name).toBeUndefined();
    }
  });
});
