import type { FastifyReply } from 'fastify';

/**
 * The Content-Security-Policy of the panel's screens: nothing but this origin's own script and
 * stylesheet files (no inline script or style, so an injected `<script>` cannot run), forms
 * posting only here, and no framing by any site (clickjacking).
 */
export const PANEL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The security headers every panel screen answers with (what `@fastify/helmet` would set, narrowed to server-rendered pages). */
export const PANEL_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': PANEL_CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
});

/** Sets `PANEL_SECURITY_HEADERS` on a reply (an `onSend` hook of the screens' scope calls it). */
export function applySecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(PANEL_SECURITY_HEADERS)) reply.header(name, value);
}
