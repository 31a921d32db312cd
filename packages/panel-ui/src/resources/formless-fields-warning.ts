import type { FastifyInstance } from 'fastify';
import type { Panel } from '@panel/core';
import { bootWarning } from '@panel/api';

/** The process warning code of a field whose type says nothing of forms. */
export const FORMLESS_FIELD_WARNING = 'PANEL_WARN_FIELD_TYPE_WITHOUT_FORM';

/**
 * Says at boot which fields the screens show as JSON and leave off forms: those of an app's
 * field type without a `form` member (every built-in type has one). One warning names them all,
 * with the fix.
 */
export function warnAboutFormlessFields(app: FastifyInstance, panel: Panel): void {
  const formless = [...panel.resources.values()].flatMap((resource) => resource.fields.filter((field) => field.kind.form === undefined).map((field) => `${resource.name}.${field.name} (${field.type})`));
  if (formless.length === 0) return;
  bootWarning(app, FORMLESS_FIELD_WARNING, `The panel's screens show ${formless.join(', ')} as JSON and leave ${formless.length === 1 ? 'it' : 'them'} off forms: the field type has no form. Fix: add form (display, control, formValue, fromForm) to the type's module (docs/panel-screens.md, "An app type's form behaviour").`);
}
