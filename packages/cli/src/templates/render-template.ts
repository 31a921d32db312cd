import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

/** The CLI package's own copy of the templates (made by its build, published with it). */
const PACKAGE_TEMPLATES = new URL('../../templates/', import.meta.url);
/** The monorepo's `templates/`, the copy's source. */
const REPO_TEMPLATES = new URL('../../../../templates/', import.meta.url);

/**
 * The folders searched for templates. Run from its TypeScript sources (in the monorepo), the CLI
 * reads the monorepo's `templates/` first, so an edit there needs no build; run from `dist/` (an
 * installed package), it reads the copy it ships.
 */
const TEMPLATE_DIRS = import.meta.url.endsWith('.ts') ? [REPO_TEMPLATES, PACKAGE_TEMPLATES] : [PACKAGE_TEMPLATES, REPO_TEMPLATES];

const cache = new Map<string, Handlebars.TemplateDelegate>();

/** The folder the templates are read from. */
export function templatesDir(): string {
  const dir = TEMPLATE_DIRS.find((url) => existsSync(fileURLToPath(new URL('controller.ts.hbs', url))));
  if (!dir) throw new Error('panel-api: the templates folder is missing from the installation (controller.ts.hbs not found).');
  return fileURLToPath(dir);
}

/** Renders a template (`controller.ts.hbs`) with `data`. Output is source code, so nothing is HTML-escaped. */
export function renderTemplate(name: string, data: Record<string, unknown>): string {
  let template = cache.get(name);
  if (!template) {
    template = Handlebars.compile(readFileSync(`${templatesDir()}${name}`, 'utf8'), { noEscape: true, strict: true });
    cache.set(name, template);
  }
  return template(data);
}
