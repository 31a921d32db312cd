import type { Panel } from '@panel/core';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The panel's root page: the resources, and where their API lives. */
export function panelHomePage(panel: Panel): string {
  const items = [...panel.resources.values()]
    .map((r) => `<li>${escapeHtml(r.naming.humanName)} — <code>/api/resources/v1/${escapeHtml(r.naming.routeKey)}</code></li>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Panel</title></head>
  <body>
    <h1>Panel</h1>
    <p>Resources:</p>
    <ul>
      ${items}
    </ul>
  </body>
</html>
`;
}
