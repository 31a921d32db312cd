import type { FastifyInstance } from 'fastify';
import type { ShellContext } from '../screens/screen-context.js';
import type { SidebarSection } from '../shell/sidebar-section.js';

export type { SidebarSection } from '../shell/sidebar-section.js';

/**
 * A part of the panel's screens an app adds by listing it in `panelScreens({ extensions: [...] })`:
 * Edition B's token and default-permissions screens (its `configurePanelApi()`) are one.
 * `@panel/panel-ui` knows this interface, never an extension.
 * See docs/extensions.md.
 */
export interface ScreensExtension {
  /** How boot errors name it. */
  readonly name: string;
  /** Registers the extension's screens inside the shell, once, at boot. */
  registerScreens(host: ScreensHost): void | Promise<void>;
}

/** What `panelScreens` gives an extension at boot. */
export interface ScreensHost {
  /** The scope the screens are registered on (its form parser, error handler and security headers apply). */
  readonly app: FastifyInstance;
  /** The shell: panel, user loader, paths, renderer; `sendPage` and `guardScreen` take it. */
  readonly shell: ShellContext;
  /** The options `panelScreens` was given: an extension reads its own keys there (Edition B: `tokens`, `revealTtlSeconds`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Adds screens (Handlebars templates, rendered inside the shell, every value escaped) and partials. */
  addScreens(screens: Readonly<Record<string, string>>, partials?: Readonly<Record<string, string>>): void;
  /** Adds a section to the sidebar, below the resources. */
  addSidebarSection(section: SidebarSection): void;
}

/** Whether `value` is a screens extension (a name and `registerScreens`). */
export function isScreensExtension(value: unknown): value is ScreensExtension {
  return typeof value === 'object' && value !== null && typeof (value as ScreensExtension).name === 'string' && typeof (value as ScreensExtension).registerScreens === 'function';
}
