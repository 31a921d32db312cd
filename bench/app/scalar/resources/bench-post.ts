import { Resource, field } from '@panel/core';

/**
 * The equal-work resource: the bench's posts table with scalar fields only (no association, no
 * file, no policy, no field rule), the same fields on index and show. Its show and index send one
 * statement and a page with its count, as the hand-written route beside it does
 * (`src/scalar/scalar-routes.ts`), so the two compare the request pipeline and nothing else.
 */
export class BenchPostResource extends Resource {
  static override resourceName = 'BenchPost';
  static override table = 'blog_posts';
  static override title = 'title';

  override fields() {
    return [
      field.id(),
      field.text('title', { required: true, maxLength: 200 }),
      field.boolean('published'),
      field.date('published_on'),
      field.integer('view_count', { min: 0 }),
      field.decimal('rating', { min: 0, max: 5 }),
      field.datetime('created_at'),
    ];
  }
}
