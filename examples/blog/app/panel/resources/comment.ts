import { Resource, field } from '@panel/core';

/** A comment on a blog post. */
export default class CommentResource extends Resource {
  override fields() {
    return [
      field.id(),
      field.text('body', { required: true }),
      field.belongsTo('blog_post', { label: 'title' }),
      field.belongsTo('user'),
    ];
  }
}
