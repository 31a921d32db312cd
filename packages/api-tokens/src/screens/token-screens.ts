import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RecordInvalidError } from '@panel/core';
import { formField, formList, formatUtc, parseUtcDateTime, setNotice } from '@panel/panel-ui';
import { GrantInvalidError, TokenNotFoundError, TokenTransitionError } from '../errors/api-tokens-errors.js';
import type { ApiToken } from '../tokens/token-service.js';
import { grantKeys, grantMatrix, grantsSummary } from './grant-matrix.js';
import { guardScreen, seeOther, sendPage, type ScreenContext } from './token-screen-context.js';

type IdRequest = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>;

const GRANTS_LEGEND = 'Grants: what the token may do';

/** The token of `:id`, or undefined (then the request was answered 404). */
async function tokenOf(context: ScreenContext, request: IdRequest, reply: FastifyReply): Promise<ApiToken | undefined> {
  const id = /^[1-9]\d{0,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
  try {
    if (Number.isSafeInteger(id)) return await context.tokens.find(id);
  } catch (error) {
    if (!(error instanceof TokenNotFoundError)) throw error;
  }
  reply.callNotFound();
  return undefined;
}

/**
 * The API Tokens screens under `<root_path>/api_tokens`: list, new + create, the one-time
 * reveal, grants, and disable / enable / revoke (revoke after a confirmation screen). Every
 * route passes `guardScreen` first; creating a token and changing grants need sudo mode.
 */
export function registerTokenScreens(app: FastifyInstance, context: ScreenContext): void {
  const { paths, tokens, panel } = context;
  const tokenPath = (id: number, action: string) => `${paths.tokens}/${id}/${action}`;

  app.get(paths.tokens, async (request, reply) => {
    const viewer = await guardScreen(context, request, reply);
    if (!viewer) return reply;
    const list = await tokens.list();
    // Every creator's row in one statement, whatever the number of tokens and creators.
    const users = await context.loadUsers(list.flatMap((t) => (t.createdById === null ? [] : [t.createdById])));
    const creators = new Map<number, string>();
    for (const token of list) {
      const id = token.createdById;
      if (id === null) continue;
      const name = users.get(id)?.name;
      creators.set(id, typeof name === 'string' ? name : `User ${id}`);
    }
    const rows = list.map((token) => ({
      id: token.id,
      name: token.name,
      status: token.status,
      expires: formatUtc(token.expiresAt, 'never'),
      lastUsed: formatUtc(token.lastUsedAt, 'never'),
      createdBy: token.createdById === null ? '—' : creators.get(token.createdById),
      grantsSummary: grantsSummary(token.grants),
      canEditGrants: token.status !== 'Revoked',
      canDisable: token.status === 'Active',
      canEnable: token.status === 'Disabled',
      canRevoke: token.status !== 'Revoked',
      grantsPath: tokenPath(token.id, 'grants'),
      disablePath: tokenPath(token.id, 'disable'),
      enablePath: tokenPath(token.id, 'enable'),
      revokePath: tokenPath(token.id, 'revoke'),
    }));
    return sendPage(context, request, reply, viewer, 200, 'tokenList', { title: 'API Tokens', section: 'tokens' }, { tokens: rows, newPath: `${paths.tokens}/new` });
  });

  const newForm = (values: { name: string; expiresAt: string }, checked: string[], errors: Record<string, string>) => ({
    createPath: paths.tokens,
    listPath: paths.tokens,
    values,
    errors,
    matrix: grantMatrix(panel, checked, { legend: GRANTS_LEGEND, hint: 'A token may do only what is ticked here.', error: errors.grants }),
  });

  app.get(`${paths.tokens}/new`, async (request, reply) => {
    const viewer = await guardScreen(context, request, reply, { sudo: true });
    if (!viewer) return reply;
    return sendPage(context, request, reply, viewer, 200, 'tokenNew', { title: 'New API token', section: 'tokens' }, newForm({ name: '', expiresAt: '' }, [], {}));
  });

  app.post(paths.tokens, async (request, reply) => {
    const viewer = await guardScreen(context, request, reply, { write: true, sudo: true });
    if (!viewer) return reply;
    const values = { name: formField(request.body, 'name'), expiresAt: formField(request.body, 'expires_at') };
    const checked = formList(request.body, 'grants[]');
    const errors: Record<string, string> = {};
    const expiresAt = parseUtcDateTime(values.expiresAt);
    if (expiresAt === undefined) errors.expires_at = 'is not a valid date and time';
    else if (expiresAt !== null && expiresAt.getTime() <= Date.now()) errors.expires_at = 'must be in the future';
    if (values.name.trim() === '') errors.name = "can't be blank";
    if (Object.keys(errors).length === 0) {
      try {
        const { token, secret } = await tokens.create({ name: values.name, expiresAt: expiresAt ?? null, createdById: viewer.user!.id, grants: checked });
        await context.reveals.hold(`api_token:${token.id}`, secret, viewer.csrfToken);
        return seeOther(reply, tokenPath(token.id, 'reveal'));
      } catch (error) {
        if (error instanceof RecordInvalidError) for (const [field, messages] of Object.entries(error.errors)) errors[field] = messages.join(', ');
        else if (error instanceof GrantInvalidError) errors.grants = error.message;
        else throw error;
      }
    }
    return sendPage(context, request, reply, viewer, 422, 'tokenNew', { title: 'New API token', section: 'tokens' }, newForm(values, checked, errors));
  });

  app.get(`${paths.tokens}/:id/reveal`, async (request: IdRequest, reply) => {
    const viewer = await guardScreen(context, request, reply);
    if (!viewer) return reply;
    const token = await tokenOf(context, request, reply);
    if (!token) return reply;
    const secret = await context.reveals.take(`api_token:${token.id}`, viewer.csrfToken);
    const model = { token: { name: token.name }, secret, canRevoke: token.status !== 'Revoked', revokeAndNewPath: `${tokenPath(token.id, 'revoke')}?then=new`, listPath: paths.tokens };
    return sendPage(context, request, reply, viewer, 200, 'tokenReveal', { title: 'Your new API token', section: 'tokens', scripts: [`${paths.assets}/copy-secret.js`] }, model);
  });

  const grantsPage = (token: ApiToken, checked: string[], rateLimit: string, error?: string, rateLimitError?: string) => ({
    token: { name: token.name },
    grantsPath: tokenPath(token.id, 'grants'),
    listPath: paths.tokens,
    matrix: grantMatrix(panel, checked, { legend: GRANTS_LEGEND, error }),
    rateLimit,
    rateLimitError,
  });

  app.get(`${paths.tokens}/:id/grants`, async (request: IdRequest, reply) => {
    const viewer = await guardScreen(context, request, reply, { sudo: true });
    if (!viewer) return reply;
    const token = await tokenOf(context, request, reply);
    if (!token) return reply;
    return sendPage(context, request, reply, viewer, 200, 'tokenGrants', { title: `Grants of ${token.name}`, section: 'tokens' }, grantsPage(token, grantKeys(token.grants), String((await tokens.rateLimit(token.id)) ?? '')));
  });

  app.post(`${paths.tokens}/:id/grants`, async (request: IdRequest, reply) => {
    const viewer = await guardScreen(context, request, reply, { write: true, sudo: true });
    if (!viewer) return reply;
    const token = await tokenOf(context, request, reply);
    if (!token) return reply;
    const checked = formList(request.body, 'grants[]');
    // The token's own rate limit: empty for the API's, else a positive whole number of requests per window.
    const rateLimit = formField(request.body, 'rate_limit').trim();
    if (rateLimit !== '' && !/^[1-9]\d{0,8}$/.test(rateLimit)) {
      return sendPage(context, request, reply, viewer, 422, 'tokenGrants', { title: `Grants of ${token.name}`, section: 'tokens' }, grantsPage(token, checked, rateLimit, undefined, 'must be a positive whole number, or empty'));
    }
    try {
      await tokens.setGrants(token.id, checked);
    } catch (error) {
      if (!(error instanceof GrantInvalidError || error instanceof TokenTransitionError)) throw error;
      return sendPage(context, request, reply, viewer, 422, 'tokenGrants', { title: `Grants of ${token.name}`, section: 'tokens' }, grantsPage(token, checked, rateLimit, error.message));
    }
    await tokens.setRateLimit(token.id, rateLimit === '' ? null : Number(rateLimit));
    setNotice(reply, paths.root, `Grants of “${token.name}” saved.`);
    return seeOther(reply, paths.tokens);
  });

  for (const action of ['disable', 'enable'] as const) {
    app.post(`${paths.tokens}/:id/${action}`, async (request: IdRequest, reply) => {
      const viewer = await guardScreen(context, request, reply, { write: true });
      if (!viewer) return reply;
      const token = await tokenOf(context, request, reply);
      if (!token) return reply;
      try {
        await tokens[action](token.id);
        setNotice(reply, paths.root, `Token “${token.name}” ${action}d.`);
      } catch (error) {
        if (!(error instanceof TokenTransitionError)) throw error;
        setNotice(reply, paths.root, error.message);
      }
      return seeOther(reply, paths.tokens);
    });
  }

  app.get(`${paths.tokens}/:id/revoke`, async (request: IdRequest, reply) => {
    const viewer = await guardScreen(context, request, reply);
    if (!viewer) return reply;
    const token = await tokenOf(context, request, reply);
    if (!token) return reply;
    if (token.status === 'Revoked') return seeOther(reply, paths.tokens);
    const model = { token: { name: token.name }, revokePath: tokenPath(token.id, 'revoke'), listPath: paths.tokens, thenNew: request.query.then === 'new' };
    return sendPage(context, request, reply, viewer, 200, 'tokenRevoke', { title: `Revoke ${token.name}`, section: 'tokens' }, model);
  });

  app.post(`${paths.tokens}/:id/revoke`, async (request: IdRequest, reply) => {
    const viewer = await guardScreen(context, request, reply, { write: true });
    if (!viewer) return reply;
    const token = await tokenOf(context, request, reply);
    if (!token) return reply;
    await tokens.revoke(token.id);
    setNotice(reply, paths.root, `Token “${token.name}” revoked.`);
    return seeOther(reply, formField(request.body, 'then') === 'new' ? `${paths.tokens}/new` : paths.tokens);
  });
}
