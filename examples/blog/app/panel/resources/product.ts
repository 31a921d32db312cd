import { Resource, field } from '@panel/core';

/** A product of the catalogue. */
export default class ProductResource extends Resource {
  override fields() {
    return [
      field.id(),
      field.text('name', { required: true }),
      field.decimal('price'),
      field.boolean('in_stock'),
      field.date('released_on'),
      field.belongsTo('product_category'),
    ];
  }
}
