import { humanize, operations, type CompiledField, type CompiledResource, type RecordRow } from '@panel/core';
import type { ScreenActor } from './screen-actor.js';
import type { ResourceScreensContext } from './screen-request.js';
import { shownValue } from './shown-value.js';
import type { RecordId } from '@panel/core';

/** How many records an association panel lists on show. */
export const PANEL_ROWS = 10;

/** The name a record goes by on the screens: its title column's value, else "Blog post #7". */
export function recordLabel(resource: CompiledResource, row: RecordRow): string {
  const title = row[resource.titleColumn];
  return resource.titleColumn !== resource.primaryKey && typeof title === 'string' && title.trim() !== '' ? title : `${resource.naming.humanName} #${String(row[resource.primaryKey])}`;
}

/**
 * The write key of the target's field that holds the foreign key back to the parent (a
 * comment's `blog_post_id`), when the target's type writes it: the "New comment" link of a
 * post's panel is prefilled with it (the new screen decides whether the user may write it).
 */
function backReference(target: CompiledResource, field: CompiledField): string | undefined {
  if (field.foreignKey === undefined) return undefined;
  return target.fields.find((candidate) => candidate.column === field.foreignKey && candidate.kind.writable)?.writeKey;
}

/** The records of one association, as a panel of the show screen shows them. */
async function associationPanel(context: ResourceScreensContext, actor: ScreenActor, resource: CompiledResource, row: RecordRow, field: CompiledField) {
  const { resourcePaths: paths, panel } = context;
  const target = panel.resources.get(field.target!)!;
  const related = field.kind.association!.related!(field, row[resource.primaryKey] as RecordId);
  const heading = humanize(field.name);
  const allHref = paths.association(resource.naming.routeKey, row[resource.primaryKey], field.name);
  const fk = backReference(target, field);
  const newHref = fk !== undefined && (await actor.may(target, 'create')) ? `${paths.newRecord(target.naming.routeKey)}?${new URLSearchParams({ [`record[${fk}]`]: String(row[resource.primaryKey]) })}` : undefined;
  const base = { heading, id: `panel-${field.name}`, allHref, newHref, newLabel: `New ${target.naming.humanName.toLowerCase()}` };
  if (!(await actor.may(target, 'index'))) return { ...base, countText: undefined, rows: [], headers: [] };
  const scope = actor.scope(target);
  const list = await operations.list({ ...actor.input(target), scope: (query) => related(scope ? scope(query) : query), page: 1, perPage: PANEL_ROWS });
  const access = actor.access(target);
  const columns = access.readable('index').filter((column) => column.target !== resource.name || column.column !== field.foreignKey);
  const title = columns.find((column) => column.column === target.titleColumn && column.kind.storage === 'column') ?? columns[0];
  return {
    ...base,
    countText: `${list.totalCountSource === 'estimate' ? 'about ' : ''}${list.totalCount}`,
    headers: columns.map((column) => ({ label: humanize(column.name) })),
    rows: list.rows.map((targetRow) => ({
      cells: columns.map((column) => {
        const value = access.shows(column, 'index', targetRow) ? shownValue(panel, paths, target, column, targetRow, 'index') : { empty: true as const };
        return { value: column === title && !value.empty ? { ...value, href: paths.record(target.naming.routeKey, targetRow[target.primaryKey]) } : value, rowHeader: column === title };
      }),
    })),
  };
}

/**
 * The show screen's model: `operations.show` as the signed-in user (the policy's `show`, the
 * scope: a record outside it is a 404), the show-view fields the user reads on this record in a
 * list of terms, one panel per `has_many` / `has_and_belongs_to_many` field (its first rows and
 * count: two statements each), and Edit and Delete only when the policy allows them on it.
 */
export async function showScreen(context: ResourceScreensContext, actor: ScreenActor, resource: CompiledResource, id: RecordId) {
  const { resourcePaths: paths, panel } = context;
  const row = await operations.show({ ...actor.input(resource), id });
  const access = actor.access(resource);
  const terms: { label: string; value: ReturnType<typeof shownValue> }[] = [];
  const panels: CompiledField[] = [];
  for (const field of access.readable('show')) {
    if (!access.shows(field, 'show', row)) continue;
    // A field whose type lists records of its target (and shows their count) is a panel of its own.
    if (field.kind.association?.related && field.kind.form?.display(null, field).kind === 'count') panels.push(field);
    else terms.push({ label: humanize(field.name), value: shownValue(panel, paths, resource, field, row, 'show') });
  }
  const label = recordLabel(resource, row);
  const routeKey = resource.naming.routeKey;
  return {
    label,
    model: {
      heading: label,
      terms,
      panels: await Promise.all(panels.map((field) => associationPanel(context, actor, resource, row, field))),
      editHref: (await actor.may(resource, 'update', row)) ? paths.edit(routeKey, row[resource.primaryKey]) : undefined,
      deleteHref: (await actor.may(resource, 'destroy', row)) ? paths.remove(routeKey, row[resource.primaryKey]) : undefined,
      indexHref: paths.index(routeKey),
      indexLabel: humanize(routeKey),
    },
  };
}
