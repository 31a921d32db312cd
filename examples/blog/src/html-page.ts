/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A whole demo page; with a CSRF token, the page names it in `<meta name="csrf-token">` for scripts. */
export function htmlPage(title: string, body: string, csrfToken?: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${csrfToken ? `<meta name="csrf-token" content="${escapeHtml(csrfToken)}">` : ''}</head>
  <body>
${body}
  </body>
</html>
`;
}
