// Which views each built-in type is on by default, what it answers, and how hideOn / onlyOn / showOn change it.
import { describe, expect, it } from 'vitest';
import { Resource, associationKey, compileResources, field, fieldViews, recordSchema, writeSchema, writableFields, type View } from '@panel/core';

class OwnerResource extends Resource {
  fields() {
    return [field.id(), field.text('name'), field.hasMany('gadgets'), field.hasOne('profile'), field.hasAndBelongsToMany('tags')];
  }
}
class ProfileResource extends Resource {
  fields() {
    return [field.id(), field.belongsTo('owner')];
  }
}
class TagResource extends Resource {
  fields() {
    return [field.id(), field.text('name'), field.hasAndBelongsToMany('owners')];
  }
}
class GadgetResource extends Resource {
  fields() {
    return [field.id(), field.text('name'), field.belongsTo('owner'), field.file('photo'), field.files('manuals'), field.textarea('notes'), field.password('pin')];
  }
}

const registry = compileResources([OwnerResource, ProfileResource, TagResource, GadgetResource]);
const owner = registry.get('Owner')!;
const gadget = registry.get('Gadget')!;
const views = (definition: Parameters<typeof fieldViews>[0]) => [...fieldViews(definition)].sort();
const ALL: View[] = ['edit', 'index', 'new', 'show'];

describe('default views of the built-in types', () => {
  it('column fields are on every view; the id only on index and show', () => {
    for (const definition of [field.text('a'), field.integer('b'), field.boolean('c'), field.date('d'), field.datetime('e'), field.select('f', { options: ['x'] }), field.tags('g'), field.keyValue('h'), field.json('i'), field.belongsTo('j')]) {
      expect(views(definition), definition.type).toEqual(ALL);
    }
    expect(views(field.id())).toEqual(['index', 'show']);
  });

  it('long text is off the index; a password only on the forms; associations only on index and show; files on every view (written by upload id)', () => {
    expect(views(field.textarea('a'))).toEqual(['edit', 'new', 'show']);
    expect(views(field.markdown('a'))).toEqual(['edit', 'new', 'show']);
    expect(views(field.password('a'))).toEqual(['edit', 'new']);
    for (const definition of [field.hasMany('a'), field.hasOne('b'), field.hasAndBelongsToMany('c')]) expect(views(definition), definition.type).toEqual(['index', 'show']);
    // The uploads design: "A write names uploads by id in the usual JSON body", so file fields are on the forms too.
    for (const definition of [field.file('d'), field.files('e')]) expect(views(definition), definition.type).toEqual(ALL);
  });

  it('onlyOn replaces the defaults, showOn adds to them, hideOn removes from either; hideOn wins over showOn', () => {
    expect(views(field.textarea('a', { onlyOn: 'index' }))).toEqual(['index']);
    expect(views(field.textarea('a', { showOn: 'index' }))).toEqual(ALL);
    expect(views(field.text('a', { showOn: 'show', hideOn: 'show' }))).toEqual(['edit', 'index', 'new']);
    expect(views(field.text('a', { onlyOn: ['show', 'edit'], hideOn: 'edit' }))).toEqual(['show']);
    expect(views(field.text('a', { hideOn: ['index', 'show', 'new', 'edit'] }))).toEqual([]);
  });
});

describe('what each association and file answers, and what a form writes', () => {
  it('on index a has_many and a habtm are { count }, a has_one { id } or null, a belongs_to { id, label }', () => {
    const { properties } = recordSchema(owner, 'index') as { properties: Record<string, Record<string, unknown>> };
    expect(properties.gadgets).toEqual({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] });
    expect(properties.tags).toEqual(properties.gadgets);
    expect(properties.profile).toMatchObject({ type: ['object', 'null'], required: ['id'] });
    const gadgetProperties = (recordSchema(gadget, 'show') as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(gadgetProperties.owner).toMatchObject({ type: ['object', 'null'], required: ['id', 'label'] });
  });

  it('a file is a file object or null; files an array of them, each with name, type, size and URL', () => {
    const { properties } = recordSchema(gadget, 'show') as { properties: Record<string, Record<string, unknown>> };
    expect(properties.photo).toMatchObject({ type: ['object', 'null'], required: ['filename', 'content_type', 'byte_size', 'url'] });
    expect(properties.manuals).toMatchObject({ type: 'array', items: { required: ['filename', 'content_type', 'byte_size', 'url'] } });
  });

  it('the serialized values read the row\'s association keys', () => {
    const row = { id: 1, [associationKey(owner.fieldsByName.get('gadgets')!)]: '3', [associationKey(owner.fieldsByName.get('profile')!)]: 9 };
    const serialize = (name: string) => {
      const target = owner.fieldsByName.get(name)!;
      return target.kind.serialize({ field: target, row, view: 'show' } as never);
    };
    expect(serialize('gadgets')).toEqual({ count: 3 });
    expect(serialize('tags')).toEqual({ count: 0 });
    expect(serialize('profile')).toEqual({ id: 9 });
  });

  it('a form writes the belongs_to as <name>_id, the password and the files (upload ids); the other side of associations is never a write key', () => {
    expect(writableFields(gadget, 'new').map((f) => f.writeKey)).toEqual(['name', 'owner_id', 'photo', 'manuals', 'notes', 'pin']);
    // "`<field>_remove` … removes the named ones" for a files field.
    expect(Object.keys((writeSchema(gadget, 'edit') as { properties: object }).properties)).toEqual(['name', 'owner_id', 'photo', 'manuals', 'manuals_remove', 'notes', 'pin']);
    expect(writableFields(owner, 'new').map((f) => f.writeKey)).toEqual(['name']);
  });

  it('a password is never part of a record\'s schema, and a write schema marks it writeOnly', () => {
    expect(Object.keys((recordSchema(gadget, 'show') as { properties: object }).properties)).not.toContain('pin');
    expect((writeSchema(gadget, 'new') as { properties: Record<string, Record<string, unknown>> }).properties.pin!.writeOnly).toBe(true);
  });
});
