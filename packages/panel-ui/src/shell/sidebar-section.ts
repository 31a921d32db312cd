import type { FastifyRequest } from 'fastify';
import type { PanelViewer } from './panel-viewer.js';

/** A sidebar section of an extension: a heading and links, shown to the viewers `shows` answers `true` for. */
export interface SidebarSection {
  /** The heading's id stem (`api` → `api-heading`). */
  readonly id: string;
  readonly heading: string;
  /** Each link is the current page on the screens whose `section` is its own. */
  readonly links: readonly { readonly label: string; readonly href: string; readonly section: string }[];
  shows(viewer: PanelViewer, request: FastifyRequest): Promise<boolean>;
}
