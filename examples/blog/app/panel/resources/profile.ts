import { Resource, field } from '@panel/core';

/** A user's public profile. */
export default class ProfileResource extends Resource {
  override fields() {
    return [
      field.id(),
      field.text('bio'),
      field.belongsTo('user', { label: 'name' }),
      field.file('avatar'),
    ];
  }
}
