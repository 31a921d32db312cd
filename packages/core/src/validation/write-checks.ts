import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { CompiledField, CompiledResource, ReadableRecords } from '../resources/compiled-types.js';
import type { ColumnValues, RecordRow } from '../records/record-row.js';
import { RecordErrors } from './record-errors.js';

export type { DestroyContext, ValidationContext } from './hook-contexts.js';

/** One check of a write that its statement computes: the condition, selected as `alias`. */
export interface StatementCheck {
  readonly alias: string;
  readonly holds: Expression<SqlBool>;
  /**
   * What the condition asks, as text (the kind of check, the field, the value, the record it
   * leaves out), alike for two writes of one actor's batch exactly when their conditions are;
   * undefined when the value cannot be written as text.
   */
  readonly key: string | undefined;
}

let expressions: ExpressionBuilder<any, any> | undefined;
/** The expression builder every write's checks are built with: it binds no table or query, so one serves them all. */
function sharedExpressionBuilder(): ExpressionBuilder<any, any> {
  expressions ??= expressionBuilder<any, any>();
  return expressions;
}

/**
 * A check's key: its kind, the column or field, the value with its JavaScript type (a `1` and a
 * `'1'` are two keys) and, for uniqueness on an update, the record it leaves out; undefined when
 * the value has no JSON text (a bigint, a cycle), so that the check is never shared.
 */
function checkKey(kind: 'unique' | 'own', name: string, value: unknown, leftOut?: unknown): string | undefined {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return [kind, name, typeof value, text, leftOut === undefined ? '' : String(leftOut)].join('\u0000');
}

/** A type's statement check as built once for a batch: its condition, its message, and whether the actor's scope narrowed it. */
export interface BuiltCheck {
  readonly holds: Expression<SqlBool>;
  readonly message: string;
  readonly narrowed: boolean;
}

/** A field's check result: the message when a statement check fails (by alias), or a transaction check's answer. */
type CheckSlot = { readonly field: CompiledField; readonly message: string } & ({ readonly alias: string } | { readonly failed: boolean });

/**
 * The checks of a write that need the database, in the order their messages are listed: per
 * field written with a value, in field order, its uniqueness (`unique` fields), then its
 * type's own check (a `belongs_to` target exists). Most are conditions the write's statement
 * computes (`statement`); a type with `checkInTransaction` is asked in `trx`, which then begins.
 * `errors` lists the failed ones, given what the statement computed.
 */
export class WriteChecks {
  readonly statement: StatementCheck[] = [];
  readonly #slots: CheckSlot[] = [];
  /** Whether a check was narrowed to the actor's readable records (then it is built for this write alone). */
  #narrowed = false;

  static async collect(input: {
    resource: CompiledResource;
    registry: ReadonlyMap<string, CompiledResource>;
    changes: ColumnValues;
    existing: RecordRow | undefined;
    /** The records of other resources the actor may read (a `belongs_to` target); undefined: every record. */
    readable?: ReadableRecords | undefined;
    /** The write's transaction, asked for only by a type with `checkInTransaction`. */
    transaction: () => Transaction<any>;
    /**
     * The type checks already built for other writes of one actor's batch, by key: a condition
     * asked again (a hundred rows naming one category) is taken from here, not built again.
     */
    built?: Map<string, BuiltCheck> | undefined;
  }): Promise<WriteChecks> {
    const { resource, registry, changes, existing, transaction, built } = input;
    const checks = new WriteChecks();
    // A scope that returns the query it was given (an admin's) lets every record through: the check is the same as without it.
    const readable: ReadableRecords | undefined =
      input.readable &&
      ((target) => {
        const scope = input.readable!(target);
        return (
          scope &&
          ((query) => {
            const scoped = scope(query);
            if (scoped !== query) checks.#narrowed = true;
            return scoped;
          })
        );
      });
    let eb: ExpressionBuilder<any, any> | undefined;
    for (const field of resource.fields) {
      if (!field.column || !(field.column in changes)) continue;
      const value = changes[field.column];
      if (value === null || value === undefined) continue;
      // Made once, when a write first has a check to build (an expression builder is some fifty closures, and holds no state).
      if (field.definition.options.unique || field.kind.checkInStatement) eb ??= sharedExpressionBuilder();
      if (field.definition.options.unique && eb) {
        let others = eb.selectFrom(resource.table).select(resource.primaryKey).where(field.column, '=', value);
        if (existing) others = others.where(resource.primaryKey, '<>', existing[resource.primaryKey]);
        checks.#addStatement(field, eb.not(eb.exists(others)), 'has already been taken', checkKey('unique', field.column, value, existing?.[resource.primaryKey]));
      }
      if (eb && field.kind.checkInStatement) {
        const key = checkKey('own', field.name, value);
        let own = key === undefined ? undefined : built?.get(key);
        if (!own) {
          // Whether this check's own build was narrowed (the flag is the write's, set by `readable`).
          const before = checks.#narrowed;
          checks.#narrowed = false;
          const check = field.kind.checkInStatement({ eb, resource, field, value, registry, readable });
          own = { holds: check.holds, message: check.message, narrowed: checks.#narrowed };
          checks.#narrowed ||= before;
          if (key !== undefined) built?.set(key, own);
        }
        if (own.narrowed) checks.#narrowed = true;
        checks.#addStatement(field, own.holds, own.message, key);
      }
      if (field.kind.checkInTransaction) {
        const message = await field.kind.checkInTransaction({ trx: transaction(), resource, field, value, registry, readable });
        checks.#slots.push({ field, message: message ?? '', failed: message !== undefined });
      }
    }
    return checks;
  }

  /**
   * Whether the write's statement with these checks depends on the write's shape alone (its
   * columns, which of them have checks), so that it can be compiled once with markers in place
   * of the values (see `compiledWrite`): every check is computed by the statement, and none was
   * narrowed to the actor's readable records.
   */
  get shapeOnly(): boolean {
    return !this.#narrowed && this.#slots.every((slot) => 'alias' in slot);
  }

  /** Which fields have which statement checks, in order: part of a compiled write's key. */
  get signature(): string {
    return this.#slots.map((slot) => `${slot.field.name}:${'alias' in slot ? slot.message : ''}`).join('\u0000');
  }

  #addStatement(field: CompiledField, holds: Expression<SqlBool>, message: string, key: string | undefined): void {
    const alias = `panel_check_${this.statement.length}`;
    this.statement.push({ alias, holds, key });
    this.#slots.push({ field, message, alias });
  }

  /** Whether a transaction check failed (then the write is refused whatever the statement computes). */
  get failedInTransaction(): boolean {
    return this.#slots.some((slot) => 'failed' in slot && slot.failed);
  }

  /** The messages of the failed checks, given what a statement computed (`compute`, or the write's). */
  errors(computed: Readonly<Record<string, unknown>>): RecordErrors {
    const errors = new RecordErrors();
    for (const slot of this.#slots) {
      const failed = 'alias' in slot ? computed[slot.alias] !== true : slot.failed;
      if (failed) errors.add(slot.field.name, slot.message);
    }
    return errors;
  }

  /** Computes the statement checks alone, in one select (none when there are none). */
  async compute(db: Kysely<any>): Promise<Record<string, unknown>> {
    if (this.statement.length === 0) return {};
    return (await db.selectNoFrom(this.selections()).executeTakeFirstOrThrow()) as Record<string, unknown>;
  }

  /** The statement checks as the select list of the write's `checks` CTE. */
  selections() {
    return this.statement.map((check) => sql<boolean>`${check.holds}`.as(check.alias));
  }
}
