import type { FieldDefinition } from '../fields/field-types.js';
import type { PolicyClass } from '../authorization/policy.js';
import type { DestroyContext, ValidationContext } from '../validation/hook-contexts.js';
import type { CountStrategyInput } from '../records/count-strategy.js';
import type { IncludeLimitsInput } from './include-limits.js';
import type { RecordKeyType } from './record-key.js';

/** A column and direction a resource is listed in when the client asks for no order. */
export interface DefaultOrder {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * A Panel resource: a class in `app/panel/resources/` whose `fields()` describe a table.
 * The class name, less a `Resource` suffix, is the resource name (`BlogPostResource` →
 * `BlogPost`); `static resourceName` overrides it.
 *
 * @example
 * export default class BlogPostResource extends Resource {
 *   static override title = 'title';
 *   fields() {
 *     return [field.id(), field.text('title', { required: true })];
 *   }
 * }
 */
export abstract class Resource {
  /** The resource name (`BlogPost`); defaults to the class name less a `Resource` suffix. */
  static resourceName?: string;
  /** The table; defaults to the route key (`blog_posts`). */
  static table?: string;
  /**
   * The primary key's column; defaults to `id`. One column of any type `primaryKeyType` names;
   * the URL keeps `:id` whatever the column is called.
   *
   * @example
   * static override primaryKey = 'film_id';
   */
  static primaryKey?: string;
  /** The primary key's type (a `RecordKeyType`, checked at boot): `integer` (the default), `bigint`, `uuid` or `text`. */
  static primaryKeyType?: RecordKeyType | (string & {});
  /** The column used as this resource's label in `belongs_to` values; defaults to `name`, `title` or `id`. */
  static title?: string;
  /** The order of an index without `sort_by`; defaults to `created_at desc`, else `id desc`. */
  static defaultOrder?: DefaultOrder;
  /** The policy that authorizes actions and scopes queries when authorization is enabled. */
  static policy?: PolicyClass;
  /**
   * How an index page of this resource finds `total_count`; default the panel's `count`
   * option (itself the exact `count(*)` by default). See `CountStrategyInput`.
   */
  static count?: CountStrategyInput;
  /**
   * The fields `q=` searches: each word of the text must be contained, case-insensitively, in
   * at least one of them. Text fields (`text`, `textarea`, `markdown`) visible on show; a
   * resource without any answers `q` with 400.
   *
   * @example
   * static override search = ['title', 'body'];
   */
  static search?: readonly string[];
  /**
   * How far `include` may reach from this resource's records: path depth, paths, embedded
   * records, records per parent (see `IncludeLimitsInput`; defaults 2, 5, 2,500, 5).
   *
   * @example
   * static override include = { maxDepth: 3, maxEmbedded: 5000 };
   */
  static include?: IncludeLimitsInput;

  /** The resource's fields, in display order. */
  abstract fields(): FieldDefinition[];

  /**
   * Record-level validation, run after the field rules and the database checks (their
   * messages are in `errors`); add messages to `errors` (a field name or `base`) to refuse
   * the write with 422. `db` is the write's transaction, begun by the hook's first query.
   */
  validate?(context: ValidationContext): void | Promise<void>;

  /** Runs in the delete's transaction before the row goes; add to `errors` (usually `base`) to refuse the delete. */
  beforeDestroy?(context: DestroyContext): void | Promise<void>;
}

/** A resource class, as passed to the panel. */
export type ResourceClass = (abstract new () => Resource) & {
  resourceName?: string;
  table?: string;
  primaryKey?: string;
  primaryKeyType?: RecordKeyType | (string & {});
  title?: string;
  defaultOrder?: DefaultOrder;
  policy?: PolicyClass;
  count?: CountStrategyInput;
  search?: readonly string[];
  include?: IncludeLimitsInput;
};

/** Whether a value is a resource class (checked by shape, so two copies of the package still agree). */
export function isResourceClass(value: unknown): value is ResourceClass {
  return (
    typeof value === 'function' &&
    typeof (value as { prototype?: { fields?: unknown } }).prototype?.fields === 'function'
  );
}
