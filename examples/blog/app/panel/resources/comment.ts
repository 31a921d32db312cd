import { Resource, field } from '@panel/core';
import { CommentPolicy } from '../policies/comment-policy.js';
import { currentUserId, unlessAdmin } from '../policies/field-rules.js';

/** A comment on a blog post. */
export default class CommentResource extends Resource {
  static override policy = CommentPolicy;
  static override search = ['body'];
  override fields() {
    return [
      field.id(),
      field.text('body', { required: true, maxLength: 10_000 }),
      field.belongsTo('blog_post', { label: 'title', required: true }),
      field.belongsTo('user', { readonly: unlessAdmin, default: currentUserId }),
    ];
  }
}
