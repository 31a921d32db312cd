import { Resource, field } from '@panel/core';
import { BlogPostPolicy } from '../policies/blog-post-policy.js';

/** A blog post, with its author, comments and files. */
export default class BlogPostResource extends Resource {
  static override policy = BlogPostPolicy;
  static override title = 'title';

  override fields() {
    return [
      field.id(),
      field.text('title', { required: true }),
      field.text('body', { hideOn: 'index' }),
      field.boolean('published'),
      field.date('published_on'),
      field.integer('view_count'),
      field.decimal('rating'),
      field.belongsTo('author', { resource: 'User', label: 'name' }),
      field.hasMany('comments'),
      field.file('cover'),
      field.files('attachments'),
      field.datetime('created_at', { onlyOn: 'show' }),
    ];
  }
}
