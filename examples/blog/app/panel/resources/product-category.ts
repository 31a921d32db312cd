import { Resource, field } from '@panel/core';
import { ProductCategoryPolicy } from '../policies/catalogue-policies.js';

/** A category of the product catalogue; its name is unique. */
export default class ProductCategoryResource extends Resource {
  static override policy = ProductCategoryPolicy;
  override fields() {
    return [field.id(), field.text('name', { required: true, unique: true, maxLength: 80 }), field.hasMany('products')];
  }
}
