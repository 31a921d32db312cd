import { Resource, field, type ValidationContext } from '@panel/core';
import { BlogPostPolicy } from '../policies/blog-post-policy.js';
import { adminsAndAuthor, currentUserId, unlessAdmin } from '../policies/field-rules.js';

/** A blog post, with its author, comments and files. */
export default class BlogPostResource extends Resource {
  static override policy = BlogPostPolicy;
  static override title = 'title';
  // Search reads what the list answers (issue 42, M2): the body is on show only, so it is not searched.
  static override search = ['title', 'summary'];

  override fields() {
    return [
      field.id(),
      field.text('title', { required: true, maxLength: 200 }),
      field.textarea('summary', { maxLength: 500 }),
      field.text('body', { hideOn: 'index' }),
      field.boolean('published'),
      field.date('published_on'),
      field.integer('view_count', { min: 0, visible: adminsAndAuthor }),
      field.decimal('rating', { min: 0, max: 5 }),
      field.belongsTo('author', { resource: 'User', label: 'name', readonly: unlessAdmin, default: currentUserId }),
      field.hasMany('comments'),
      field.hasAndBelongsToMany('tag_list', { resource: 'Tag' }),
      field.file('cover', { accept: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'], maxBytes: 2 * 1024 * 1024 }),
      field.files('attachments'),
      field.datetime('created_at', { onlyOn: 'show' }),
    ];
  }

  /** A published post carries its publication date. */
  override validate({ record, errors }: ValidationContext) {
    if (record.published === true && (record.published_on === null || record.published_on === undefined)) {
      errors.add('published_on', "can't be blank when the post is published");
    }
  }
}
