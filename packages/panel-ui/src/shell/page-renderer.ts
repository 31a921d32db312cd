import Handlebars from 'handlebars';
import { LAYOUT_TEMPLATE } from '../templates/layout-template.js';
import { isolatedHtml } from './bidi-isolation.js';

/** What the shell shows around every screen. */
export interface ShellModel {
  readonly rootPath: string;
  readonly assets: string;
  readonly logoutPath: string;
  readonly signInPath: string;
  /** The sidebar's resources: a link (`href`) to each one the viewer may list, `current` on the screen's own. */
  readonly resources: readonly { label: string; routeKey: string; href?: string | undefined; current?: boolean }[];
  readonly user: { displayName: string } | null;
  readonly csrfToken: string;
  /** The extensions' sidebar sections this viewer may see (Edition B's "API"), each link `current` on its own screen. */
  readonly sections: readonly ShownSection[];
  readonly flash: { text: string; alert: boolean } | null;
}

/** A sidebar section as the layout shows it. */
export interface ShownSection {
  readonly id: string;
  readonly heading: string;
  readonly links: readonly { label: string; href: string; current: boolean }[];
}

/** One screen to render inside the shell. */
export interface ScreenModel {
  readonly title: string;
  /** The sidebar entry marked as the current page (`home`, or an extension's link's `section`). */
  readonly section?: string;
  /** The route key of the resource a resource screen shows (its sidebar entry is the current page). */
  readonly resource?: string;
  readonly scripts?: readonly string[];
}

/**
 * Renders the screens with Handlebars, escaping every `{{value}}` (only the already-rendered
 * screen is inserted raw into the layout; `{{isolated value}}` escapes it too, inside `<bdi>`).
 * The templates are compiled once, in an environment
 * of their own, so that the app's own Handlebars helpers and partials cannot change them.
 */
export class PageRenderer {
  readonly #handlebars = Handlebars.create();
  readonly #layout: Handlebars.TemplateDelegate;
  readonly #screens = new Map<string, Handlebars.TemplateDelegate>();

  constructor(screens: Readonly<Record<string, string>>, partials: Readonly<Record<string, string>> = {}) {
    this.#handlebars.registerHelper('eq', (a: unknown, b: unknown) => a === b);
    this.#handlebars.registerHelper('isolated', isolatedHtml);
    this.#layout = this.#compile(LAYOUT_TEMPLATE);
    this.addScreens(screens, partials);
  }

  #compile(source: string): Handlebars.TemplateDelegate {
    return this.#handlebars.compile(source, { strict: false, noEscape: false });
  }

  /** Adds screens and partials (an extension's, at boot); a name already taken is a mistake. */
  addScreens(screens: Readonly<Record<string, string>>, partials: Readonly<Record<string, string>> = {}): void {
    for (const name of Object.keys(screens)) if (this.#screens.has(name)) throw new Error(`PageRenderer: the screen "${name}" exists already.`);
    for (const [name, source] of Object.entries(partials)) this.#handlebars.registerPartial(name, source);
    for (const [name, source] of Object.entries(screens)) this.#screens.set(name, this.#compile(source));
  }

  /** The whole page: `screen` rendered with `model`, inside the shell. */
  render(screen: string, shell: ShellModel, page: ScreenModel, model: object): string {
    const template = this.#screens.get(screen);
    if (!template) throw new Error(`PageRenderer: no screen named "${screen}".`);
    const context = { ...shell, ...model };
    return this.#layout({ ...shell, ...page, body: template(context) });
  }
}
