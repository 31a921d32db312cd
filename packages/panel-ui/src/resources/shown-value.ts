import { jsonDisplay, type CompiledField, type CompiledResource, type Panel, type RecordRow, type View } from '@panel/core';
import { fieldJson } from '@panel/api';
import type { ResourcePaths } from './resource-paths.js';

/** One value as a template draws it: exactly one member besides `href` is set. */
export interface ShownValue {
  readonly text?: string;
  /** A link around `text` (a record of another resource, an association list). */
  readonly href?: string;
  readonly multiline?: string;
  readonly list?: readonly string[];
  readonly files?: readonly { readonly filename: string; readonly url: string; readonly image: boolean }[];
  readonly json?: string;
  readonly empty?: true;
}

const EMPTY: ShownValue = Object.freeze({ empty: true });

/**
 * How one field of one record is shown: the value the API answers (the type's `serialize`),
 * displayed as the type's `form.display` says (its JSON for a type without `form`), with links
 * to the screens of the records it names (a count links to the association's list). A `belongs_to` whose target the user may not read has
 * no label: its id is shown as plain text.
 */
export function shownValue(panel: Panel, paths: ResourcePaths, resource: CompiledResource, field: CompiledField, row: RecordRow, view: View): ShownValue {
  const json = fieldJson({ field, row, view });
  const display = field.kind.form ? field.kind.form.display(json, field) : jsonDisplay(json);
  switch (display.kind) {
    case 'empty':
      return EMPTY;
    case 'text':
      return { text: display.text };
    case 'multiline':
      return { multiline: display.text };
    case 'yes_no':
      return { text: display.value ? 'Yes' : 'No' };
    case 'record': {
      const target = field.target === undefined ? undefined : panel.resources.get(field.target);
      if (display.label === null || target === undefined) return { text: `#${display.id}` };
      return { text: display.label, href: paths.record(target.naming.routeKey, display.id) };
    }
    case 'count':
      return { text: String(display.count), href: paths.association(resource.naming.routeKey, row[resource.primaryKey], field.name) };
    case 'list':
      return display.items.length === 0 ? EMPTY : { list: display.items };
    case 'files':
      return { files: display.files.map((file) => ({ filename: file.filename, url: file.url, image: file.contentType.startsWith('image/') })) };
    case 'json':
      return { json: display.text };
  }
}
