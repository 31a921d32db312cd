import { GRANT_VERBS, type ApiTokenService, type GrantInput } from '@panel/api-tokens';
import type { Panel } from '@panel/core';

/** The tokens the Edition B demo makes at start, in the order it prints them. */
export const DEMO_TOKEN_NAMES = ['all', 'reader', 'writer', 'nogrants', 'disabled', 'revoked', 'expired', 'limited'] as const;

/** The rate limit of the demo's `limited` token: 5 requests per window (the demo's window is 60 s). */
export const LIMITED_TOKEN_MAX_REQUESTS = 5;

/** The default permissions list of the demo: index and show on products, index on blog posts. */
export const DEMO_DEFAULT_PERMISSIONS = ['products:index', 'products:show', 'blog_posts:index'];

/**
 * Makes the Edition B demo's tokens (each created by Ada, user 1) and its default permissions
 * list, and returns each token's secret by name — the only time the secrets are seen.
 */
export async function seedDemoTokens(panel: Panel, tokens: ApiTokenService, now = new Date()): Promise<Map<string, string>> {
  const every: GrantInput[] = [...panel.resources.values()].flatMap((r) => GRANT_VERBS.map((verb) => ({ resource: r.naming.routeKey, verb })));
  const secrets = new Map<string, string>();
  const make = async (name: string, grants: GrantInput[], expiresAt: Date | null = null) => {
    const { token, secret } = await tokens.create({ name, grants, expiresAt, createdById: 1 });
    secrets.set(name, secret);
    return token.id;
  };
  await make('all', every);
  await make('reader', ['blog_posts:index', 'blog_posts:show', 'comments:index', 'comments:show']);
  await make('writer', ['blog_posts:index', 'blog_posts:show', 'blog_posts:create', 'blog_posts:update']);
  await make('nogrants', []);
  await tokens.disable(await make('disabled', every));
  await tokens.revoke(await make('revoked', every));
  await make('expired', every, new Date(now.getTime() - 60_000));
  // Every grant, and a limit of its own: the sixth request within 60 s is a 429.
  await tokens.setRateLimit(await make('limited', every), LIMITED_TOKEN_MAX_REQUESTS);
  await tokens.setDefaultPermissions(DEMO_DEFAULT_PERMISSIONS);
  return secrets;
}
