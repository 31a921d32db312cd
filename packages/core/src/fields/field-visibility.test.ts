import { describe, expect, it } from 'vitest';
import { field } from './field-builders.js';
import { fieldViews } from './field-visibility.js';

const views = (definition: ReturnType<typeof field.text>) => [...fieldViews(definition)].sort();

describe('field visibility per view', () => {
  it('shows a text field on every view by default', () => {
    expect(views(field.text('title'))).toEqual(['edit', 'index', 'new', 'show']);
  });

  it('hides a field on the views named by hideOn', () => {
    expect(views(field.text('body', { hideOn: 'index' }))).toEqual(['edit', 'new', 'show']);
    expect(views(field.datetime('created_at', { hideOn: ['new', 'edit'] }))).toEqual(['index', 'show']);
  });

  it('shows a field only on the views named by onlyOn', () => {
    expect(views(field.datetime('created_at', { onlyOn: 'show' }))).toEqual(['show']);
  });

  it('keeps the id and read-only associations off the forms unless showOn adds a view', () => {
    expect(views(field.id())).toEqual(['index', 'show']);
    expect(views(field.hasMany('comments'))).toEqual(['index', 'show']);
    expect(views(field.id('id', { showOn: 'edit' }))).toEqual(['edit', 'index', 'show']);
  });

  it('refuses a field name that is not an identifier', () => {
    expect(() => field.text('drop table; --')).toThrow(/field name must be an identifier/);
  });
});
