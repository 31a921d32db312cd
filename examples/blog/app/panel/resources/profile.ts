import { Resource, field } from '@panel/core';
import { ProfilePolicy } from '../policies/profile-policy.js';
import { currentUserId, unlessAdmin } from '../policies/field-rules.js';

/** A user's public profile. */
export default class ProfileResource extends Resource {
  static override policy = ProfilePolicy;
  override fields() {
    return [
      field.id(),
      field.text('bio'),
      field.belongsTo('user', { label: 'name', required: true, readonly: unlessAdmin, default: currentUserId }),
      field.file('avatar'),
    ];
  }
}
