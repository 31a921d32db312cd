import { Resource, field } from '@panel/core';
import { ProductPolicy } from '../policies/catalogue-policies.js';

/** A product of the catalogue. */
export default class ProductResource extends Resource {
  static override policy = ProductPolicy;
  override fields() {
    return [
      field.id(),
      field.text('name', { required: true, maxLength: 120 }),
      field.decimal('price', { min: 0 }),
      field.boolean('in_stock'),
      field.date('released_on'),
      field.belongsTo('product_category'),
    ];
  }
}
