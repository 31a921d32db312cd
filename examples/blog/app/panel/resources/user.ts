import { Resource, field } from '@panel/core';
import { UserPolicy } from '../policies/user-policy.js';

/** The people who write posts and comments. */
export default class UserResource extends Resource {
  static override policy = UserPolicy;
  override fields() {
    return [
      field.id(),
      field.text('name', { required: true }),
      field.text('email', { required: true }),
      field.boolean('admin'),
      field.datetime('created_at', { hideOn: ['new', 'edit'] }),
      field.hasMany('blog_posts', { resource: 'BlogPost', foreignKey: 'author_id' }),
      field.hasOne('profile'),
    ];
  }
}
