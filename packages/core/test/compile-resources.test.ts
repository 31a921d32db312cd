import { describe, expect, it } from 'vitest';
import { PanelConfigError, Resource, compileResources, field, isPanelError, type FieldDefinition, type ResourceClass } from '@panel/core';
import { LIBRARY_RESOURCES } from './fixtures/library-resources.js';

/** A resource class with the given name and fields, built inline for one test. */
function resourceClass(name: string, fields: () => FieldDefinition[], statics: { resourceName?: string; table?: string } = {}): ResourceClass {
  const cls = class extends Resource {
    fields() {
      return fields();
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  return Object.assign(cls, statics);
}

/** The PanelConfigError a compilation throws, checked by its code. */
function compileError(classes: readonly ResourceClass[]): PanelConfigError {
  try {
    compileResources(classes);
  } catch (error) {
    expect(isPanelError(error, 'PANEL_ERR_CONFIG')).toBe(true);
    expect(error).toBeInstanceOf(PanelConfigError);
    return error as PanelConfigError;
  }
  throw new Error('compileResources accepted the resources');
}

const Author = resourceClass('AuthorResource', () => [field.id(), field.text('name')]);

describe('compileResources: mistakes fail at startup with a message naming the fix', () => {
  it('names the resource, the field, the missing target and the option to pass for a belongs_to to an unknown resource', () => {
    const Book = resourceClass('BookResource', () => [field.id(), field.belongsTo('publisher')]);
    expect(compileError([Author, Book]).message).toBe(
      'Resource Book: the field "publisher" points at the resource "Publisher", which does not exist. ' +
        "Fix: pass { resource: '<ResourceName>' } to field.belongsTo('publisher', …).",
    );
  });

  it('names field.hasMany in the fix for a has_many to an unknown resource', () => {
    const WithReviews = resourceClass('AuthorResource', () => [field.id(), field.hasMany('reviews')]);
    expect(compileError([WithReviews]).message).toBe(
      'Resource Author: the field "reviews" points at the resource "Review", which does not exist. ' +
        "Fix: pass { resource: '<ResourceName>' } to field.hasMany('reviews', …).",
    );
  });

  it('names field.hasOne in the fix for a has_one whose explicit resource is unknown', () => {
    const WithBio = resourceClass('AuthorResource', () => [field.id(), field.hasOne('bio', { resource: 'Biography' })]);
    expect(compileError([WithBio]).message).toMatch(/points at the resource "Biography", which does not exist\. Fix: pass \{ resource: '<ResourceName>' \} to field\.hasOne\('bio', …\)\.$/);
  });

  it('refuses a field declared twice and says to remove one', () => {
    const Book = resourceClass('BookResource', () => [field.id(), field.text('title'), field.text('title', { hideOn: 'index' })]);
    expect(compileError([Book]).message).toBe('Resource Book: the field "title" is declared twice. Fix: remove one of them.');
  });

  it('refuses a field named __proto__, which the API can never read nor write (a JSON answer leaves the key out, a body holding it is refused), naming the resource and the fix', () => {
    const Note = resourceClass('NoteResource', () => [field.id(), field.text('__proto__')]);
    expect(compileError([Note]).message).toBe(
      'Resource Note: a field cannot be named "__proto__": JSON answers leave that key out and a body holding it is refused, so the API could never read nor write it. Fix: rename the column (and the field).',
    );
    // Other names of Object's members are served (constructor, toString, prototype, hasOwnProperty).
    const Served = resourceClass('ServedResource', () => [field.id(), field.text('constructor'), field.text('toString'), field.text('prototype'), field.text('hasOwnProperty')]);
    expect(compileResources([Served]).get('Served')!.fields.map((f) => f.name)).toEqual(['id', 'constructor', 'toString', 'prototype', 'hasOwnProperty']);
  });

  it('refuses two resources with one name and says how to rename one', () => {
    const Book = resourceClass('BookResource', () => [field.id()]);
    const AlsoBook = resourceClass('Book', () => [field.id()]);
    expect(compileError([Author, Book, AlsoBook]).message).toBe(
      'Two resources are named Book. Fix: give one of them a different class name or static resourceName.',
    );
  });

  it('refuses two resources that share a static resourceName', () => {
    const Book = resourceClass('BookResource', () => [field.id()]);
    const Other = resourceClass('OtherResource', () => [field.id()], { resourceName: 'Book' });
    expect(compileError([Book, Other]).message).toMatch(/^Two resources are named Book\./);
  });

  // docs/resources.md: a resource name is a capital letter, then letters and digits (`BlogPost`);
  // routes, controller files and class names are derived from it.
  it.each([['../../../evil'], [''], ['blog_post'], ['Blog Post'], ['2faCode']])('refuses the resource name %j, naming the class and the fix', (name) => {
    const Evil = resourceClass('EvilResource', () => [field.id()], { resourceName: name });
    expect(compileError([Author, Evil]).message).toBe(
      `Resource class EvilResource: ${JSON.stringify(name)} is not a resource name: a capital letter, then letters and digits, such as BlogPost. Fix: set static resourceName to such a name, or rename the class.`,
    );
  });

  it('refuses a class name that gives no resource name', () => {
    const Lower = resourceClass('bookResource', () => [field.id()]);
    expect(compileError([Lower]).message).toMatch(/^Resource class bookResource: "book" is not a resource name/);
  });

  it('refuses fields() that does not return an array', () => {
    const Broken = resourceClass('BrokenResource', () => undefined as unknown as FieldDefinition[]);
    expect(compileError([Broken]).message).toBe('Resource Broken: fields() must return an array of field definitions.');
  });
});

describe('compileResources: the defaults it resolves for the records layer', () => {
  const library = compileResources(LIBRARY_RESOURCES);
  const resource = (name: string) => library.get(name)!;

  it('names a resource after its class less "Resource", and its table after the route key unless static table says otherwise', () => {
    expect([...library.keys()]).toEqual(['Author', 'Book', 'BookRow', 'Review', 'Biography', 'Loan', 'Shelf']);
    expect(resource('Book').table).toBe('books');
    expect(resource('BookRow').table).toBe('books');
    expect(resource('Review').table).toBe('reviews');
  });

  it('defaults the order to created_at desc when the resource declares it, else id desc, unless defaultOrder is set', () => {
    expect(resource('Book').defaultOrder).toEqual({ column: 'created_at', direction: 'desc' });
    expect(resource('Author').defaultOrder).toEqual({ column: 'id', direction: 'desc' });
    expect(resource('Review').defaultOrder).toEqual({ column: 'stars', direction: 'desc' });
  });

  it('resolves a belongs_to: column and write key <name>_id, the target, and the label (name, else title, else id, or the label option)', () => {
    const author = resource('Book').fieldsByName.get('author')!;
    expect(author).toMatchObject({ column: 'author_id', writeKey: 'author_id', target: 'Author', labelColumn: 'name', sortable: false });
    expect(resource('Book').fieldsByName.get('editor')).toMatchObject({ column: 'editor_id', target: 'Author', labelColumn: 'name' });
    expect(resource('Review').fieldsByName.get('book')).toMatchObject({ target: 'Book', labelColumn: 'title' });
    expect(resource('Loan').fieldsByName.get('book')).toMatchObject({ labelColumn: 'title' });
    expect(resource('Biography').fieldsByName.get('author')).toMatchObject({ labelColumn: 'handle' });
  });

  it('resolves has_many and has_one: the singular target and the foreign key <owner singular key>_id, no column of their own', () => {
    expect(resource('Author').fieldsByName.get('books')).toMatchObject({ target: 'Book', foreignKey: 'author_id', column: undefined });
    expect(resource('Author').fieldsByName.get('biography')).toMatchObject({ target: 'Biography', foreignKey: 'author_id', column: undefined });
    expect(resource('Book').fieldsByName.get('reviews')).toMatchObject({ target: 'Review', foreignKey: 'book_id' });
  });

  it('falls back to the id as the label of a target with neither name nor title', () => {
    const Tag = resourceClass('TagResource', () => [field.id(), field.text('slug')]);
    const Post = resourceClass('PostResource', () => [field.id(), field.belongsTo('tag')]);
    expect(compileResources([Tag, Post]).get('Post')!.fieldsByName.get('tag')!.labelColumn).toBe('id');
  });

  it('freezes the compiled resource', () => {
    expect(Object.isFrozen(resource('Book'))).toBe(true);
    expect(Object.isFrozen(resource('Book').fields)).toBe(true);
  });
});
