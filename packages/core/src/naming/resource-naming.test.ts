import { describe, expect, it } from 'vitest';
import { resourceNaming, resourceNameFromClassName, resourceNameFromAssociation } from './resource-naming.js';

describe('resourceNaming', () => {
  it('names the generated controller as the spec does: "resource `User` gives UsersController"', () => {
    expect(resourceNaming('User').controllerName).toBe('UsersController');
  });

  it('names the generated controller as the spec does: "`BlogPost` gives BlogPostsController"', () => {
    expect(resourceNaming('BlogPost').controllerName).toBe('BlogPostsController');
  });

  it('names the generated controller as the spec does: "`ProductCategory` gives ProductCategoriesController"', () => {
    expect(resourceNaming('ProductCategory').controllerName).toBe('ProductCategoriesController');
  });

  it('derives the route key (plural snake_case), the singular key and the human name', () => {
    expect(resourceNaming('ProductCategory')).toEqual({
      name: 'ProductCategory',
      routeKey: 'product_categories',
      singularKey: 'product_category',
      humanName: 'Product category',
      controllerName: 'ProductCategoriesController',
      controllerFile: 'product-categories-controller',
    });
    expect(resourceNaming('BlogPost').humanName).toBe('Blog post');
    expect(resourceNaming('Person').routeKey).toBe('people');
    expect(resourceNaming('HTTPRequest').singularKey).toBe('http_request');
  });

  it('strips the Resource suffix from class names and singularizes association names', () => {
    expect(resourceNameFromClassName('BlogPostResource')).toBe('BlogPost');
    expect(resourceNameFromClassName('User')).toBe('User');
    expect(resourceNameFromAssociation('comments')).toBe('Comment');
    expect(resourceNameFromAssociation('blog_post')).toBe('BlogPost');
  });
});
