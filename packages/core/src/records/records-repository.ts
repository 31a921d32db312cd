import type { Kysely, Transaction } from 'kysely';
import type { CompiledResource } from '../resources/compiled-resource.js';
import type { View } from '../fields/field-types.js';
import { RecordNotFoundError } from '../errors/panel-errors.js';
import { ROW_ALIAS, selectRecords, type ScopeFunction } from './record-select.js';
import { constraintViolation } from './constraint-errors.js';

/** A row as the records layer returns it: columns, plus association values under `__<type>__<name>`. */
export type RecordRow = Record<string, unknown>;

/** A column to sort an index by, already checked against the resource's sortable fields. */
export interface RecordsSort {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/** One index page and the total the pagination envelope needs. */
export interface RecordsPage {
  readonly rows: RecordRow[];
  readonly totalCount: number;
}

/** Column → value, already parsed and validated. */
export type ColumnValues = Record<string, unknown>;

const identity: ScopeFunction = (query) => query;

/**
 * The records layer: reads and writes a resource's table through Kysely. An index page costs
 * two statements (the page with its association values, and the count), whatever the page
 * size and the number of association fields. Writes run in one transaction and turn
 * constraint violations into `RecordInvalidError`.
 */
export class RecordsRepository {
  readonly #db: Kysely<any>;
  readonly #registry: ReadonlyMap<string, CompiledResource>;

  constructor(db: Kysely<any>, registry: ReadonlyMap<string, CompiledResource>) {
    this.#db = db;
    this.#registry = registry;
  }

  /** One page of records, visible through `scope`, with the view's association values. */
  async list(input: {
    resource: CompiledResource;
    view: View;
    page: number;
    perPage: number;
    sort?: RecordsSort | undefined;
    scope?: ScopeFunction | undefined;
  }): Promise<RecordsPage> {
    const { resource, view, page, perPage } = input;
    const scope = input.scope ?? identity;
    const order = input.sort ?? resource.defaultOrder;
    let pageQuery = scope(selectRecords(this.#db, resource, view, this.#registry)).orderBy(`${ROW_ALIAS}.${order.column}`, order.direction);
    if (order.column !== resource.primaryKey) pageQuery = pageQuery.orderBy(`${ROW_ALIAS}.${resource.primaryKey}`, order.direction);
    // A scope may order its query; `count(*)` with an `order by` is refused by PostgreSQL (42803).
    const countQuery = scope(this.#db.selectFrom(`${resource.table} as ${ROW_ALIAS}`)).clearOrderBy().select((eb) => eb.fn.countAll<number>().as('count'));
    const [rows, count] = await Promise.all([
      pageQuery.limit(perPage).offset((page - 1) * perPage).execute(),
      countQuery.executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as RecordRow[], totalCount: Number((count as { count: number }).count) };
  }

  /** The record with that id visible through `scope`, or `RecordNotFoundError`. */
  async find(input: { resource: CompiledResource; view: View; id: number; scope?: ScopeFunction | undefined }, db: Kysely<any> = this.#db): Promise<RecordRow> {
    const { resource, view, id } = input;
    const scope = input.scope ?? identity;
    const row = await scope(selectRecords(db, resource, view, this.#registry))
      .where(`${ROW_ALIAS}.${resource.primaryKey}`, '=', id)
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError(resource.name, id);
    return row as RecordRow;
  }

  /** Inserts a record and returns it on `view`, in one transaction. */
  async create(input: { resource: CompiledResource; view: View; values: ColumnValues }): Promise<RecordRow> {
    const { resource, view, values } = input;
    return this.#write(resource, 'write', async (trx) => {
      const insert = trx.insertInto(resource.table);
      const { id } = await (Object.keys(values).length === 0 ? insert.defaultValues() : insert.values(values))
        .returning(resource.primaryKey)
        .executeTakeFirstOrThrow();
      return this.find({ resource, view, id: id as number }, trx);
    });
  }

  /** Updates a record visible through `scope` and returns it on `view`, in one transaction. */
  async update(input: { resource: CompiledResource; view: View; id: number; values: ColumnValues; scope?: ScopeFunction | undefined }): Promise<RecordRow> {
    const { resource, view, id, values, scope } = input;
    return this.#write(resource, 'write', async (trx) => {
      await this.find({ resource, view: 'edit', id, scope }, trx);
      if (Object.keys(values).length > 0) {
        await trx.updateTable(resource.table).set(values).where(resource.primaryKey, '=', id).execute();
      }
      return this.find({ resource, view, id }, trx);
    });
  }

  /** Deletes a record visible through `scope`, in one transaction. */
  async destroy(input: { resource: CompiledResource; id: number; scope?: ScopeFunction | undefined }): Promise<void> {
    const { resource, id, scope } = input;
    await this.#write(resource, 'delete', async (trx) => {
      await this.find({ resource, view: 'show', id, scope }, trx);
      await trx.deleteFrom(resource.table).where(resource.primaryKey, '=', id).execute();
    });
  }

  async #write<T>(resource: CompiledResource, operation: 'write' | 'delete', work: (trx: Transaction<any>) => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction().execute(work);
    } catch (error) {
      throw constraintViolation(error, resource, operation) ?? error;
    }
  }
}
