import { BaseResourcesController } from './base-resources-controller.js';

/** The demo's blog posts, the only resource the bench drives. */
export class BlogPostsController extends BaseResourcesController {
  static override resourceName = 'BlogPost';
}

export default BlogPostsController;
