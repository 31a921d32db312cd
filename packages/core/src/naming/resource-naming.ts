import pluralize from 'pluralize';

/**
 * The names the spec derives from a resource name: the route key (plural snake_case path
 * segment), the singular key (the body key for writes), the human name used in messages, and
 * the name of the generated controller.
 *
 * @example
 * resourceNaming('ProductCategory');
 * // { name: 'ProductCategory', routeKey: 'product_categories', singularKey: 'product_category',
 * //   humanName: 'Product category', controllerName: 'ProductCategoriesController',
 * //   controllerFile: 'product-categories-controller' }
 */
export interface ResourceNaming {
  readonly name: string;
  readonly routeKey: string;
  readonly singularKey: string;
  readonly humanName: string;
  readonly controllerName: string;
  readonly controllerFile: string;
}

/** `BlogPost` → `blog_post`; `HTTPRequest` → `http_request`. */
export function underscore(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/** `blog_post` → `BlogPost`. */
export function camelize(snake: string): string {
  return snake
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** `blog_post` → `Blog post` (Rails' `humanize`). */
export function humanize(snake: string): string {
  const words = snake.replace(/_id$/, '').replace(/_/g, ' ').trim();
  return words.length === 0 ? words : words[0]!.toUpperCase() + words.slice(1);
}

/** Derives every name of a resource from its name (`BlogPost`). */
export function resourceNaming(name: string): ResourceNaming {
  const singularKey = underscore(name);
  const routeKey = pluralize.plural(singularKey);
  const pluralName = camelize(routeKey);
  return Object.freeze({
    name,
    routeKey,
    singularKey,
    humanName: humanize(singularKey),
    controllerName: `${pluralName}Controller`,
    controllerFile: `${routeKey.replace(/_/g, '-')}-controller`,
  });
}

/** A resource name: a capital letter, then letters and digits (`BlogPost`); routes, files and class names derive from it. */
const RESOURCE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Why `name` cannot be a resource name (with the fix), or undefined when it can. `createPanel`
 * and `panel-api` refuse the same names with this sentence.
 *
 * @example
 * resourceNameProblem('BlogPost'); // undefined
 * resourceNameProblem('../evil'); // '"../evil" is not a resource name: … Fix: …'
 */
export function resourceNameProblem(name: string): string | undefined {
  if (RESOURCE_NAME.test(name)) return undefined;
  return `${JSON.stringify(name)} is not a resource name: a capital letter, then letters and digits, such as BlogPost. Fix: set static resourceName to such a name, or rename the class.`;
}

/** The resource name a class name stands for: `BlogPostResource` → `BlogPost`. */
export function resourceNameFromClassName(className: string): string {
  return className.endsWith('Resource') && className !== 'Resource'
    ? className.slice(0, -'Resource'.length)
    : className;
}

/** The resource name an association field points at by default: `comments` → `Comment`. */
export function resourceNameFromAssociation(fieldName: string): string {
  return camelize(pluralize.singular(fieldName));
}
