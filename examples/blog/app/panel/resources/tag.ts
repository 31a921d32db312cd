import { Resource, field } from '@panel/core';
import { TagPolicy } from '../policies/catalogue-policies.js';

/** A tag on blog posts; its name is unique. */
export default class TagResource extends Resource {
  static override policy = TagPolicy;
  override fields() {
    return [field.id(), field.text('name', { required: true, unique: true, maxLength: 60 }), field.hasAndBelongsToMany('blog_posts', { resource: 'BlogPost' })];
  }
}
