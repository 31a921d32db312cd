import { Resource, field } from '@panel/core';

/** A category of the product catalogue; its name is unique. */
export default class ProductCategoryResource extends Resource {
  override fields() {
    return [field.id(), field.text('name', { required: true }), field.hasMany('products')];
  }
}
