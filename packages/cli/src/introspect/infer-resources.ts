import { resourceNaming } from '@panel/core';
import { resourceNameOfTable, tableNameProblem } from './table-names.js';
import { codeString } from '../text/quoting.js';
import type { CatalogColumn, CatalogTable } from './catalog.js';
import type { JsonShape } from './json-shapes.js';

/** One field of an inferred resource: its builder call, and what it was inferred from. */
export interface InferredField {
  /** `field.text('title', { required: true })`. */
  readonly source: string;
  /** The column (or, for has_many / has_one, the other table's foreign key) it stands for. */
  readonly column: string;
  /** `varchar(160) → text`, for the report. */
  readonly inferred: string;
}

/** A resource `init` writes for one table. */
export interface InferredResource {
  readonly name: string;
  readonly table: string;
  /** The file's stem under the resources folder (`invoice_line`). */
  readonly stem: string;
  readonly primaryKey: string;
  readonly primaryKeyType: 'integer' | 'bigint' | 'uuid' | 'text';
  /** The label column (`static title`) when it is not the default guess. */
  readonly title: string | undefined;
  readonly fields: readonly InferredField[];
  /** Columns left out, each with the reason (a secret, a type without a field type). */
  readonly leftOut: readonly { column: string; reason: string }[];
}

/** Tables whose inferred resource names are the same (`person` and `people` are both `Person`). */
export interface NameCollision {
  readonly name: string;
  readonly tables: readonly string[];
}

/** What `inferResources` is told besides the catalog. */
export interface InferOptions {
  /**
   * The resource name of a table when it is not the one inferred from its name: the name
   * `resource <Name> --from-table` was given, or the class of the file init wrote for it
   * earlier. Associations to the table use it too.
   */
  readonly names?: ReadonlyMap<string, string> | undefined;
  /**
   * The tables that have (or get) a resource, when not all of them do: associations reach only
   * these (`resource <Name> --from-table` writes one file, and a field pointing at a resource that
   * does not exist stops the app from booting). Default: every served table.
   */
  readonly associateWith?: ReadonlySet<string> | undefined;
  /** What each `json` / `jsonb` column holds (`readJsonShapes`), keyed `table.column`; without one, `field.json`. */
  readonly jsonShapes?: ReadonlyMap<string, JsonShape> | undefined;
}

/** A table or view `init` does not serve, with the reason. */
export interface NotServed {
  readonly table: string;
  readonly reason: string;
}

const KEY_TYPES: Record<string, InferredResource['primaryKeyType']> = { int2: 'integer', int4: 'integer', int8: 'bigint', uuid: 'uuid', text: 'text', varchar: 'text', bpchar: 'text', citext: 'text' };
const SECRET = /(^|_)(password|passwd|secret|token|api_key|apikey|salt|hash|digest|otp|private_key)(_|$)/i;
const LONG_TEXT = /(^|_)(description|body|notes?|content|bio|summary|comment|details)$/;
const LABELS = ['name', 'title', 'email', 'label', 'username', 'code', 'slug'];
/** What core accepts as a field name (`field.text('naïve')` throws when the resource loads). */
const FIELD_NAME = /^[a-z_][a-z0-9_]*$/i;
/** A field core refuses (`compileResources`): JSON treats the key as the object's prototype. */
const PROTO_FIELD = 'a field named __proto__ can never be read nor written through JSON (answers leave the key out, a body holding it is refused): rename the column';
const NOT_A_FIELD_NAME = 'its name is not a field name (a letter or _, then letters, digits or _): rename the column, or declare a field of your own with the column option';

/** The field builder call for a plain column, or the reason it has none. */
function columnField(column: CatalogColumn, required: boolean, shape: JsonShape | undefined): { call: string; kind: string } | { reason: string } {
  const options: string[] = [];
  if (required) options.push('required: true');
  // The database computes it and refuses a written value: answered, never written from the API.
  if (column.generated) options.push('readonly: true');
  const { typname, typtype } = column;
  const opts = (more: string[] = []) => {
    const all = [...options, ...more];
    return all.length > 0 ? `, { ${all.join(', ')} }` : '';
  };
  const name = codeString(column.name);
  if (typtype === 'e') return { call: `field.select(${name}${opts([`options: ${JSON.stringify(column.enumValues ?? [])}`])})`, kind: 'select' };
  if (column.element !== null) {
    return ['text', 'varchar', 'citext', 'bpchar'].includes(column.element) ? { call: `field.tags(${name}${opts()})`, kind: 'tags' } : { reason: `an array of ${column.element}, which no field type holds` };
  }
  switch (typname) {
    case 'int2':
    case 'int4':
      return { call: `field.integer(${name}${opts()})`, kind: 'integer' };
    // An int8 value may pass 2^53, which a JSON number (field.integer) cannot hold exactly.
    case 'int8':
      return { call: `field.bigint(${name}${opts()})`, kind: 'bigint' };
    case 'numeric':
    case 'float4':
    case 'float8':
    case 'money':
      return typname === 'money' ? { reason: 'money, which no field type holds (use numeric)' } : { call: `field.decimal(${name}${opts()})`, kind: 'decimal' };
    case 'bool':
      return { call: `field.boolean(${name}${opts()})`, kind: 'boolean' };
    case 'date':
      return { call: `field.date(${name}${opts()})`, kind: 'date' };
    case 'timestamptz':
    case 'timestamp':
      return { call: `field.datetime(${name}${opts()})`, kind: 'datetime' };
    // By what the column holds: field.keyValue answers every value as a string, field.json objects only.
    case 'jsonb':
    case 'json':
      if (shape === 'string-map') return { call: `field.keyValue(${name}${opts()})`, kind: 'key_value' };
      if (shape === 'other') return { reason: `${column.type} holding arrays or scalars, which no field type holds (field.json and field.keyValue take objects)` };
      return { call: `field.json(${name}${opts()})`, kind: 'json' };
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'citext':
    case 'uuid': {
      if (typname === 'text' && LONG_TEXT.test(column.name)) return { call: `field.textarea(${name}${opts()})`, kind: 'textarea' };
      return { call: `field.text(${name}${opts(column.maxLength !== null ? [`maxLength: ${column.maxLength}`] : [])})`, kind: 'text' };
    }
    default:
      return { reason: `${column.type}, which no field type holds` };
  }
}

/**
 * The resources `init` writes for the tables of a schema: one per table with a single-column
 * primary key of a served type; the others (composite or no key, views) listed with the
 * reason. Fields from column types, `belongs_to` from foreign keys and the inverse `has_many`
 * (`has_one` over a unique foreign key), a label column guessed, secret-like columns left out.
 * Tables that would be one resource are returned as `collisions` (the caller refuses them).
 */
export function inferResources(tables: readonly CatalogTable[], options: InferOptions = {}): { resources: InferredResource[]; notServed: NotServed[]; collisions: NameCollision[] } {
  const notServed: NotServed[] = [];
  const served = new Map<string, { table: CatalogTable; key: CatalogColumn; name: string }>();
  for (const table of tables) {
    if (table.name.startsWith('panel_') || table.name.startsWith('kysely_')) continue;
    const view = table.kind === 'v' ? 'a view' : table.kind === 'm' ? 'a materialized view' : table.kind === 'f' ? 'a foreign table' : undefined;
    if (view) notServed.push({ table: table.name, reason: `${view}: it has no primary key to address a record by (write a resource of your own over a unique column if its rows can be addressed)` });
    else if (table.primaryKey === null) notServed.push({ table: table.name, reason: 'no primary key: a record cannot be addressed (add one, e.g. id bigint generated by default as identity primary key)' });
    else if (table.primaryKey.length > 1) {
      const names = table.primaryKey.map((n) => table.columns.find((c) => c.attnum === n)?.name).join(', ');
      notServed.push({ table: table.name, reason: `a composite primary key (${names}): only single-column keys are served (a join table is reached through has_and_belongs_to_many on the tables it joins)` });
    } else {
      const key = table.columns.find((c) => c.attnum === table.primaryKey![0])!;
      if (!FIELD_NAME.test(key.name) || key.name === '__proto__') notServed.push({ table: table.name, reason: `its primary key ${JSON.stringify(key.name)}: ${key.name === '__proto__' ? PROTO_FIELD : NOT_A_FIELD_NAME}` });
      else if (KEY_TYPES[key.typname] === undefined) notServed.push({ table: table.name, reason: `its primary key ${key.name} is ${key.type}: keys are integer, bigint, uuid or text` });
      else {
        // Class and file names come from the resource name: a table that gives none (or the base controller's) is not served.
        const name = options.names?.get(table.name) ?? resourceNameOfTable(table.name);
        const problem = tableNameProblem(table.name, name);
        if (problem !== undefined) notServed.push({ table: table.name, reason: problem });
        else served.set(table.name, { table, key, name: name! });
      }
    }
  }
  const byName = new Map<string, string[]>();
  for (const [tableName, entry] of served) byName.set(entry.name, [...(byName.get(entry.name) ?? []), tableName]);
  const collisions = [...byName].filter(([, names]) => names.length > 1).map(([name, names]) => ({ name, tables: names }));

  const resources: InferredResource[] = [];
  for (const { table, key, name } of served.values()) {
    const fields: InferredField[] = [];
    const leftOut: { column: string; reason: string }[] = [];
    const taken = new Set(table.columns.map((c) => c.name));
    const keyType = KEY_TYPES[key.typname]!;
    // A key the database fills is field.id; one the client chooses is a required field of its type.
    if (key.hasDefault) fields.push({ source: key.name === 'id' ? 'field.id()' : `field.id('${key.name}')`, column: key.name, inferred: `${key.type} primary key with a default → id (${keyType})` });
    else {
      const plain = columnField(key, true, undefined) as { call: string; kind: string };
      fields.push({ source: plain.call, column: key.name, inferred: `${key.type} primary key without a default → ${plain.kind}, written by the client` });
    }
    const belongsTo = new Map<number, { target: string; targetName: string }>();
    for (const fk of table.foreignKeys) {
      if (fk.columns.length !== 1) continue;
      const target = served.get(fk.target);
      if (!target || fk.targetColumns[0] !== target.key.attnum || options.associateWith?.has(fk.target) === false) continue;
      belongsTo.set(fk.columns[0]!, { target: fk.target, targetName: target.name });
    }
    for (const column of table.columns) {
      if (column.attnum === key.attnum) continue;
      if (!FIELD_NAME.test(column.name) || column.name === '__proto__') {
        leftOut.push({ column: column.name, reason: column.name === '__proto__' ? PROTO_FIELD : NOT_A_FIELD_NAME });
        continue;
      }
      const required = column.notNull && !column.hasDefault;
      if (SECRET.test(column.name)) {
        leftOut.push({ column: column.name, reason: 'looks like a secret (hidden by default: add it yourself, e.g. as field.password)' });
        continue;
      }
      const association = belongsTo.get(column.attnum);
      if (association) {
        // album_id → album; country_code → country (the target's name) when that name is free.
        const targetKey = resourceNaming(association.targetName).singularKey;
        const base = column.name.endsWith('_id') ? column.name.slice(0, -3) : !taken.has(targetKey) ? targetKey : `${column.name}_record`;
        const fieldName = taken.has(base) ? `${base}_record` : base;
        taken.add(fieldName);
        const options = [`resource: ${codeString(association.targetName)}`, ...(fieldName === column.name.slice(0, -3) ? [] : [`foreignKey: ${codeString(column.name)}`]), ...(required ? ['required: true'] : [])];
        fields.push({ source: `field.belongsTo('${fieldName}', { ${options.join(', ')} })`, column: column.name, inferred: `${column.type} foreign key → ${association.target} → belongs_to` });
        continue;
      }
      const plain = columnField(column, required, options.jsonShapes?.get(`${table.name}.${column.name}`));
      if ('reason' in plain) leftOut.push({ column: column.name, reason: plain.reason });
      else fields.push({ source: plain.call, column: column.name, inferred: column.generated ? `${column.type} generated → ${plain.kind}, read-only` : `${column.type} → ${plain.kind}` });
    }
    // The inverse of every foreign key that points here: has_many, or has_one over a unique column.
    for (const other of served.values()) {
      if (options.associateWith?.has(other.table.name) === false) continue;
      for (const fk of other.table.foreignKeys) {
        if (fk.target !== table.name || fk.columns.length !== 1 || fk.targetColumns[0] !== key.attnum) continue;
        const column = other.table.columns.find((c) => c.attnum === fk.columns[0])!;
        const unique = other.table.uniqueColumns.includes(column.attnum);
        const naming = resourceNaming(other.name);
        let fieldName = unique ? naming.singularKey : naming.routeKey;
        if (taken.has(fieldName)) fieldName = `${fieldName}_by_${column.name.replace(/_id$/, '')}`;
        taken.add(fieldName);
        const builder = unique ? 'hasOne' : 'hasMany';
        fields.push({ source: `field.${builder}(${codeString(fieldName)}, { resource: ${codeString(other.name)}, foreignKey: ${codeString(column.name)} })`, column: `${other.table.name}.${column.name}`, inferred: `foreign key ${other.table.name}.${column.name} → ${unique ? 'has_one' : 'has_many'}` });
      }
    }
    const columns = new Set(table.columns.map((c) => c.name));
    const label = LABELS.find((l) => columns.has(l) && !leftOut.some((o) => o.column === l));
    const defaultTitle = columns.has('name') ? 'name' : columns.has('title') ? 'title' : key.name;
    resources.push({
      name,
      table: table.name,
      stem: resourceNaming(name).singularKey,
      primaryKey: key.name,
      primaryKeyType: keyType,
      title: label !== undefined && label !== defaultTitle ? label : undefined,
      fields,
      leftOut,
    });
  }
  return { resources, notServed, collisions };
}
