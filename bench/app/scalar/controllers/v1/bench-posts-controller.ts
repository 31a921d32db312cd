import { BaseResourcesController } from '../../../controllers/panel/api/resources/v1/base-resources-controller.js';

/** The equal-work resource's controller: the bench's key look-up (a hash and a map look-up), nothing else. */
export class BenchPostsController extends BaseResourcesController {
  static override resourceName = 'BenchPost';
}

export default BenchPostsController;
