import type { CompiledQuery } from 'kysely';
import { filled, markersFor, sameStatement, templateOf, type StatementTemplate } from './statement-templates.js';

/** The statements one builder makes together, by name: a list's page and count, a find, a write. */
export type Statements = Readonly<Record<string, CompiledQuery>>;

/**
 * What a group of statements depends on besides its values (`key`, within `bucket`), and the
 * values that fill its parameters this time.
 */
export interface StatementShape {
  /**
   * What the shape is counted with: a string, or an object (a resource's writes). Shapes a
   * client chooses (a list's filters and sort, a write's columns) are bounded per bucket.
   */
  readonly bucket: string | object;
  readonly key: string;
  readonly values: readonly unknown[];
  /** The most shapes the bucket keeps; past them a new shape is built per request. Undefined: the app's own shapes (resources × views), unbounded. */
  readonly max?: number | undefined;
  /** Whether each value must be a parameter of the statements (the default); false for statements of some of the values (a write's checks alone). */
  readonly everyValue?: boolean | undefined;
}

/** How many shapes a bucket keeps, and how many of them have statements (the others are built per request). */
export interface KeptShapes {
  readonly kept: number;
  readonly compiled: number;
}

/**
 * The one place the records layer keeps compiled statements: a list's page and count per
 * resource, view, order and filter shape, a find per resource and view, a write per resource,
 * view and columns. A caller builds its statements with one function of the values
 * (`build(values)`) and asks the cache first; the cache may answer with statements it built
 * once, with markers in place of the values, and fills with this request's values. Undefined
 * means "build your own", which is always right: the cache is an optimization, never a path of
 * its own (`NO_STATEMENT_CACHE` answers undefined every time, and the records suites give the
 * same answers under it: `PANEL_TEST_STATEMENT_CACHE=off`).
 *
 * Named (prepared) statements, the other cache of statements, are the database's
 * (`openDatabase`'s `preparedStatements`); `openDatabase({ statementCache: false })` turns both off.
 */
export interface StatementCache {
  /** False for the no-op cache: every statement is built for its request. */
  readonly enabled: boolean;
  /**
   * The statements of `shape` with its values, or undefined when none are kept for it (the cache
   * is off or its bucket full, or the shape's SQL depends on its values): build your own.
   */
  statements<S extends Statements>(shape: StatementShape, build: (values: readonly unknown[]) => S): S | undefined;
  /** `statements` for a builder that awaits (a write's checks). */
  statementsAsync<S extends Statements>(shape: StatementShape, build: (values: readonly unknown[]) => Promise<S>): Promise<S | undefined>;
  /** What `bucket` keeps (for tests and diagnostics). */
  shapes(bucket: string | object): KeptShapes;
}

/** The cache that keeps nothing: every statement is built and compiled for its request. */
export const NO_STATEMENT_CACHE: StatementCache = Object.freeze({
  enabled: false,
  statements: () => undefined,
  statementsAsync: async () => undefined,
  shapes: () => Object.freeze({ kept: 0, compiled: 0 }),
});

/** A shape's templates by statement name, or null for a shape built per request. */
type ShapeTemplates = ReadonlyMap<string, StatementTemplate> | null;

/**
 * Keeps each shape's statements as templates (`statement-templates.ts`). A shape is kept only
 * when its statements, built with markers, take its values as parameters and, filled with the
 * first request's values, are exactly what that request builds itself; otherwise it is kept as
 * "built per request" (null), so the check runs once per shape.
 *
 * @example
 * const cache = new ShapeStatementCache();
 * const { find } = cache.statements({ bucket: 'find', key: 'Book\u0000show', values: [7] }, build) ?? build([7]);
 */
export class ShapeStatementCache implements StatementCache {
  readonly enabled = true;
  readonly #buckets = new Map<string | object, Map<string, ShapeTemplates>>();

  statements<S extends Statements>(shape: StatementShape, build: (values: readonly unknown[]) => S): S | undefined {
    const bucket = this.#bucket(shape);
    let templates = bucket?.get(shape.key);
    if (templates === undefined) {
      if (bucket === undefined) return undefined;
      const markers = markersFor(shape.values);
      templates = confirmed(marked(shape, markers, () => build(markers)), shape.values, () => build(shape.values));
      bucket.set(shape.key, templates);
    }
    return templates === null ? undefined : (fill(templates, shape.values) as S);
  }

  async statementsAsync<S extends Statements>(shape: StatementShape, build: (values: readonly unknown[]) => Promise<S>): Promise<S | undefined> {
    const bucket = this.#bucket(shape);
    let templates = bucket?.get(shape.key);
    if (templates === undefined) {
      if (bucket === undefined) return undefined;
      const markers = markersFor(shape.values);
      const withMarkers = await build(markers).catch(() => undefined);
      const own = withMarkers === undefined ? undefined : await build(shape.values);
      templates = confirmed(marked(shape, markers, () => withMarkers), shape.values, () => own!);
      bucket.set(shape.key, templates);
    }
    return templates === null ? undefined : (fill(templates, shape.values) as S);
  }

  shapes(bucket: string | object): KeptShapes {
    const templates = this.#buckets.get(bucket);
    let compiled = 0;
    for (const template of templates?.values() ?? []) if (template !== null) compiled += 1;
    return { kept: templates?.size ?? 0, compiled };
  }

  /** The bucket of a shape not kept yet, or undefined when it is full. */
  #bucket(shape: StatementShape): Map<string, ShapeTemplates> | undefined {
    let bucket = this.#buckets.get(shape.bucket);
    if (bucket === undefined) {
      bucket = new Map();
      this.#buckets.set(shape.bucket, bucket);
    }
    return bucket.has(shape.key) || shape.max === undefined || bucket.size < shape.max ? bucket : undefined;
  }
}

/** The templates of statements built with markers, or null when they could not be built so, or leave a value out. */
function marked(shape: StatementShape, markers: readonly symbol[], build: () => Statements | undefined): Map<string, StatementTemplate> | null {
  let statements: Statements | undefined;
  try {
    statements = build();
  } catch {
    return null; // a condition or check that cannot take a marker for its value
  }
  if (statements === undefined) return null;
  const templates = new Map(Object.entries(statements).map(([name, statement]) => [name, templateOf(statement, markers)] as const));
  if (shape.everyValue === false) return templates;
  for (let i = 0; i < markers.length; i += 1) {
    let taken = false;
    for (const template of templates.values()) if (template.slots.includes(i)) taken = true;
    if (!taken) return null;
  }
  return templates;
}

/** The templates when, filled with `values`, they are exactly the statements `own()` builds with them; else null. */
function confirmed(templates: Map<string, StatementTemplate> | null, values: readonly unknown[], own: () => Statements): ShapeTemplates {
  if (templates === null) return null;
  const built = own();
  for (const [name, template] of templates) {
    const statement = built[name];
    if (statement === undefined || !sameStatement(statement, filled(template, values))) return null;
  }
  return Object.keys(built).length === templates.size ? templates : null;
}

/** Each template filled with `values`, by name. */
function fill(templates: ReadonlyMap<string, StatementTemplate>, values: readonly unknown[]): Statements {
  const statements: Record<string, CompiledQuery> = {};
  for (const [name, template] of templates) statements[name] = filled(template, values);
  return statements;
}
