import { PublicResourcesController } from '@panel/api';

/**
 * An Edition B override that extends a plain framework controller: **public** — no
 * authentication and no permission gate, for reads and writes alike (spec: "it is public,
 * unauthenticated and ungated").
 */
export class ProductCategoriesController extends PublicResourcesController {
  static override resourceName = 'ProductCategory';
}
