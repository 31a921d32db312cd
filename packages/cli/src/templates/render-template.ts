import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

/** The folders searched for templates: the CLI package's own copy, then the monorepo's `templates/`. */
const TEMPLATE_DIRS = [new URL('../../templates/', import.meta.url), new URL('../../../../templates/', import.meta.url)];

const cache = new Map<string, Handlebars.TemplateDelegate>();

/** The folder the templates are read from. */
export function templatesDir(): string {
  const dir = TEMPLATE_DIRS.find((url) => existsSync(fileURLToPath(new URL('controller.ts.hbs', url))));
  if (!dir) throw new Error('panel-api: the templates folder is missing from the installation (controller.ts.hbs not found).');
  return fileURLToPath(dir);
}

/** Renders a template (`controller.ts.hbs`) with `data`. Output is TypeScript source, so nothing is HTML-escaped. */
export function renderTemplate(name: string, data: Record<string, unknown>): string {
  let template = cache.get(name);
  if (!template) {
    template = Handlebars.compile(readFileSync(`${templatesDir()}${name}`, 'utf8'), { noEscape: true, strict: true });
    cache.set(name, template);
  }
  return template(data);
}
