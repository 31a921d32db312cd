import { Resource, field, type DestroyContext } from '@panel/core';
import { UserPolicy } from '../policies/user-policy.js';
import { adminsOnly, unlessAdmin, unlessOwnAccount } from '../policies/field-rules.js';

/** The people who write posts and comments. */
export default class UserResource extends Resource {
  static override policy = UserPolicy;
  static override search = ['name', 'email'];
  override fields() {
    return [
      field.id(),
      field.text('name', { required: true, maxLength: 120 }),
      // Only admins write email and admin; only its own user changes a password, through their
      // panel session with a recent confirmation (never a token or an API key); only admins read
      // when an account was created.
      field.text('email', { required: true, unique: true, maxLength: 254, format: /^[^@\s]+@[^@\s]+$/, readonly: unlessAdmin, filterable: false }),
      field.boolean('admin', { readonly: unlessAdmin }),
      field.password('password', { minLength: 8, confirm: true, readonly: unlessOwnAccount }),
      field.datetime('created_at', { hideOn: ['new', 'edit'], visible: adminsOnly }),
      field.hasMany('blog_posts', { resource: 'BlogPost', foreignKey: 'author_id' }),
      field.hasOne('profile'),
    ];
  }

  /** Admins are not deleted through the API. */
  override beforeDestroy({ record, errors }: DestroyContext) {
    if (record.admin === true) errors.add('base', 'Cannot delete an admin user');
  }
}
