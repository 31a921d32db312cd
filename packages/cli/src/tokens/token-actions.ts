import type { ApiToken, Grant } from '@panel/api-tokens';
import { parseExpires } from './expires-option.js';
import { TokenCommandError } from './token-command-error.js';
import { withTokenService, type TokenCommandContext } from './token-service-session.js';

const grantText = (grants: readonly Grant[]) => (grants.length === 0 ? 'none' : grants.map((grant) => `${grant.resource}:${grant.verb}`).join(', '));
const dateText = (date: Date | null) => (date === null ? 'never' : date.toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** A token as `--json` prints it (snake_case, as the API's bodies); never its secret. */
function tokenJson(token: ApiToken) {
  return {
    id: token.id,
    name: token.name,
    status: token.status,
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    created_at: token.createdAt.toISOString(),
    revoked_at: token.revokedAt?.toISOString() ?? null,
    grants: token.grants.map((grant) => `${grant.resource}:${grant.verb}`),
  };
}

/** A token id from the command line: a positive whole number. */
function tokenId(text: string): number {
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) throw new TokenCommandError(`A token id is a positive whole number (see panel-api token list), instead got "${text}".`);
  return Number(text);
}

/** Rows as columns padded to their widest cell, two spaces apart. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

/**
 * `panel-api token create`: the secret is the only line on standard output (so that
 * `TOKEN=$(npx panel-api token create …)` captures it), printed this once and never stored; what
 * was created goes to standard error.
 */
export function createTokenAction(context: TokenCommandContext, input: { name: string; grants: readonly string[]; expires?: string | undefined; json: boolean; now: Date }): Promise<number> {
  return withTokenService(context, async (tokens) => {
    const expiresAt = input.expires === undefined ? null : parseExpires(input.expires, input.now);
    const { token, secret } = await tokens.create({ name: input.name, expiresAt, grants: input.grants });
    if (input.json) {
      context.print(JSON.stringify({ ...tokenJson(token), secret }, null, 2));
      return 0;
    }
    context.printError(`✓ Created API token ${token.id} "${token.name}" (expires ${dateText(token.expiresAt)}; grants ${grantText(token.grants)}). Its secret, shown this once:`);
    context.print(secret);
    return 0;
  });
}

/** `panel-api token list`: every token with its status, expiry, last use and grants; never a secret. */
export function listTokensAction(context: TokenCommandContext, input: { json: boolean }): Promise<number> {
  return withTokenService(context, async (tokens) => {
    const list = await tokens.list();
    if (input.json) {
      context.print(JSON.stringify(list.map(tokenJson), null, 2));
      return 0;
    }
    if (list.length === 0) {
      context.print('No API tokens. Create one: npx panel-api token create --name <name> --grant <route_key>:<verb>,…');
      return 0;
    }
    const rows = [['ID', 'NAME', 'STATUS', 'EXPIRES', 'LAST USED', 'GRANTS'], ...list.map((t) => [String(t.id), t.name, t.status, dateText(t.expiresAt), dateText(t.lastUsedAt), grantText(t.grants)])];
    for (const line of columns(rows)) context.print(line);
    return 0;
  });
}

/** `panel-api token revoke <id>`: for good (a revoked token never authenticates again, and cannot be enabled). */
export function revokeTokenAction(context: TokenCommandContext, input: { id: string }): Promise<number> {
  return withTokenService(context, async (tokens) => {
    const token = await tokens.revoke(tokenId(input.id));
    context.print(`✓ Revoked API token ${token.id} "${token.name}"`);
    return 0;
  });
}

/** `panel-api grants set <id>`: replaces the token's grants (refused for a revoked token). */
export function setGrantsAction(context: TokenCommandContext, input: { id: string; grants: readonly string[] }): Promise<number> {
  return withTokenService(context, async (tokens) => {
    const token = await tokens.setGrants(tokenId(input.id), input.grants);
    context.print(`✓ Grants of API token ${token.id} "${token.name}": ${grantText(token.grants)}`);
    return 0;
  });
}

/** `panel-api default-permissions set`: replaces the default permissions list (index and show only). */
export function setDefaultPermissionsAction(context: TokenCommandContext, input: { grants: readonly string[] }): Promise<number> {
  return withTokenService(context, async (tokens) => {
    const grants = await tokens.setDefaultPermissions(input.grants);
    context.print(`✓ Default permissions: ${grantText(grants)}`);
    return 0;
  });
}

/** `panel-api default-permissions show`. */
export function showDefaultPermissionsAction(context: TokenCommandContext): Promise<number> {
  return withTokenService(context, async (tokens) => {
    context.print(`Default permissions: ${grantText(await tokens.defaultPermissions())}`);
    return 0;
  });
}
