import Handlebars from 'handlebars';
import { LAYOUT_TEMPLATE } from '../templates/layout-template.js';
import { GRANT_MATRIX_PARTIAL } from '../templates/grant-matrix-template.js';

/** What the shell shows around every screen. */
export interface ShellModel {
  readonly rootPath: string;
  readonly assets: string;
  readonly tokensPath: string;
  readonly settingsPath: string;
  readonly logoutPath: string;
  readonly signInPath: string;
  /** The sidebar's resources: a link (`href`) to each one the viewer may list, `current` on the screen's own. */
  readonly resources: readonly { label: string; routeKey: string; href?: string | undefined; current?: boolean }[];
  readonly user: { displayName: string } | null;
  readonly csrfToken: string;
  readonly mayManageTokens: boolean;
  readonly flash: { text: string; alert: boolean } | null;
}

/** One screen to render inside the shell. */
export interface ScreenModel {
  readonly title: string;
  /** The sidebar entry marked as the current page. */
  readonly section?: 'tokens' | 'settings' | 'home';
  /** The route key of the resource a resource screen shows (its sidebar entry is the current page). */
  readonly resource?: string;
  readonly scripts?: readonly string[];
}

/**
 * Renders the screens with Handlebars, escaping every `{{value}}` (only the already-rendered
 * screen is inserted raw into the layout). The templates are compiled once, in an environment
 * of their own, so that the app's own Handlebars helpers and partials cannot change them.
 */
export class PageRenderer {
  readonly #handlebars = Handlebars.create();
  readonly #layout: Handlebars.TemplateDelegate;
  readonly #screens = new Map<string, Handlebars.TemplateDelegate>();

  constructor(screens: Readonly<Record<string, string>>, partials: Readonly<Record<string, string>> = {}) {
    this.#handlebars.registerHelper('eq', (a: unknown, b: unknown) => a === b);
    this.#handlebars.registerPartial('grantMatrix', GRANT_MATRIX_PARTIAL);
    for (const [name, source] of Object.entries(partials)) this.#handlebars.registerPartial(name, source);
    const compile = (source: string) => this.#handlebars.compile(source, { strict: false, noEscape: false });
    this.#layout = compile(LAYOUT_TEMPLATE);
    for (const [name, source] of Object.entries(screens)) this.#screens.set(name, compile(source));
  }

  /** The whole page: `screen` rendered with `model`, inside the shell. */
  render(screen: string, shell: ShellModel, page: ScreenModel, model: object): string {
    const template = this.#screens.get(screen);
    if (!template) throw new Error(`PageRenderer: no screen named "${screen}".`);
    const context = { ...shell, ...model };
    return this.#layout({ ...shell, ...page, body: template(context) });
  }
}
