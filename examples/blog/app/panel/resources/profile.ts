import { Resource, field } from '@panel/core';
import { ProfilePolicy } from '../policies/profile-policy.js';

/** A user's public profile. */
export default class ProfileResource extends Resource {
  static override policy = ProfilePolicy;
  override fields() {
    return [
      field.id(),
      field.text('bio'),
      field.belongsTo('user', { label: 'name', required: true }),
      field.file('avatar'),
    ];
  }
}
