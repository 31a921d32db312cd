import { Resource, field } from '@panel/core';
import { ProductPolicy } from '../policies/catalogue-policies.js';

/** A product of the catalogue. */
export default class ProductResource extends Resource {
  static override policy = ProductPolicy;
  static override search = ['name'];
  override fields() {
    return [
      field.id(),
      field.text('name', { required: true, maxLength: 120 }),
      field.decimal('price', { min: 0 }),
      field.boolean('in_stock'),
      field.date('released_on'),
      field.belongsTo('product_category'),
      field.select('status', { options: [{ value: 'draft', label: 'Draft' }, { value: 'active', label: 'Active' }, { value: 'archived', label: 'Archived' }] }),
      field.tags('tags'),
      field.keyValue('specs', { maxBytes: 4096 }),
    ];
  }
}
