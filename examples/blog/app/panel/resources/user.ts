import { Resource, field, type DestroyContext } from '@panel/core';
import { UserPolicy } from '../policies/user-policy.js';

/** The people who write posts and comments. */
export default class UserResource extends Resource {
  static override policy = UserPolicy;
  static override search = ['name', 'email'];
  override fields() {
    return [
      field.id(),
      field.text('name', { required: true, maxLength: 120 }),
      field.text('email', { required: true, unique: true, maxLength: 254, format: /^[^@\s]+@[^@\s]+$/, filterable: false }),
      field.boolean('admin'),
      field.password('password', { minLength: 8 }),
      field.datetime('created_at', { hideOn: ['new', 'edit'] }),
      field.hasMany('blog_posts', { resource: 'BlogPost', foreignKey: 'author_id' }),
      field.hasOne('profile'),
    ];
  }

  /** Admins are not deleted through the API. */
  override beforeDestroy({ record, errors }: DestroyContext) {
    if (record.admin === true) errors.add('base', 'Cannot delete an admin user');
  }
}
