import type { FastifyInstance } from 'fastify';

/** A parsed HTML form: `name` → value, and `name[]` → every value posted under that name. */
export type FormBody = Record<string, string | string[]>;

/** The largest form the screens accept; a bigger body answers 413 before any handler runs. */
export const FORM_BODY_LIMIT = 32 * 1024;

/**
 * Parses `application/x-www-form-urlencoded` bodies in the screens' scope. A name ending in `[]`
 * (the grant checkboxes, `grants[]`) collects all its values in posting order; any other name
 * keeps its last value, so a duplicated field cannot smuggle an array into a string.
 */
export function registerFormParser(app: FastifyInstance): void {
  // The screens take forms only. Any other body (JSON, text, malformed) is read and ignored, so
  // that the gate still answers first: a refused user gets the same 404 whatever they post.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, (_request, _body, done) => done(null, undefined));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const form: FormBody = {};
    for (const [name, value] of new URLSearchParams(body as string)) {
      if (name.endsWith('[]')) {
        const list = form[name];
        form[name] = Array.isArray(list) ? [...list, value] : [value];
      } else {
        form[name] = value;
      }
    }
    done(null, form);
  });
}

/** One text field of a form; '' when absent or posted as a list. */
export function formField(body: unknown, name: string): string {
  const value = (body as FormBody | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a list field (`grants[]`); [] when absent. */
export function formList(body: unknown, name: string): string[] {
  const value = (body as FormBody | undefined)?.[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}
