// Issue 21, "One error table: one registry of codes across packages, one code → status → body
// mapping used by every route and plugin (the panel's screens included), one 422 message per
// action; the fail callbacks stay as the spec's override points but render through it."
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isPanelError, NotAuthorizedError, RecordInvalidError } from '@panel/core';
import { TokenNotFoundError, TokenPepperError } from '@panel/api-tokens';
import { AuthenticationError, ConfirmationRequiredError, ERROR_STATUS, errorReply, ForbiddenError, NotFoundError, refusedWriteReply } from '../src/index.js';

const ERRORS_PAGE = fileURLToPath(new URL('../../../docs/errors.md', import.meta.url));

describe('one registry of codes across packages (ERROR_CODES)', () => {
  it('holds exactly the codes the errors page lists (which a docs test ties to each package\'s code type)', async () => {
    const inDocs = [...new Set((await readFile(ERRORS_PAGE, 'utf8')).match(/\bPANEL_(?:API_)?ERR_[A-Z_]+\b/g) ?? [])].sort();
    expect(Object.keys(ERROR_CODES).sort()).toEqual(inDocs);
  });

  it('isPanelError recognises the errors of every package: core\'s, the API\'s and the token service\'s', () => {
    expect(isPanelError(new ForbiddenError())).toBe(true);
    expect(isPanelError(new ForbiddenError(), 'PANEL_API_ERR_FORBIDDEN')).toBe(true);
    expect(isPanelError(new TokenNotFoundError(7), 'PANEL_API_ERR_TOKEN_NOT_FOUND')).toBe(true);
    expect(isPanelError(new NotAuthorizedError('update', 'Book'), 'PANEL_API_ERR_FORBIDDEN')).toBe(false);
    // A second copy of a package throws its own classes: the code is what counts.
    expect(isPanelError({ code: 'PANEL_API_ERR_BAD_REQUEST', message: 'x' })).toBe(true);
    expect(isPanelError(Object.assign(new Error('x'), { code: 'PANEL_API_ERR_NOT_A_CODE' }))).toBe(false);
    expect(isPanelError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
  });

  it('the table answers every code of the registry: a registered status, or a 500 for the codes never raised while serving', () => {
    const unanswered = Object.keys(ERROR_CODES).filter((code) => errorReply({ code, message: 'x', errors: {} }).status === 500).sort();
    expect(unanswered).toEqual(['PANEL_API_ERR_CONTROLLER', 'PANEL_API_ERR_GRANT_INVALID', 'PANEL_API_ERR_TOKEN_NOT_FOUND', 'PANEL_API_ERR_TOKEN_PEPPER', 'PANEL_API_ERR_TOKEN_TRANSITION', 'PANEL_ERR_CONFIG', 'PANEL_ERR_PGLITE_FOLDER_IN_USE', 'PANEL_ERR_STORAGE']);
    expect(errorReply(new TokenPepperError('no pepper'))).toEqual({ status: 500, body: { error: 'Internal Server Error' } });
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(Object.hasOwn(ERROR_CODES, code), code).toBe(true);
      expect(status, code).toBe(errorReply({ code, message: 'x', errors: {} }).status);
    }
  });
});

describe('one code → status → body mapping, in every context', () => {
  it('a refused policy check: the redirect by default, 403 JSON under an Edition B mount (policyRefusal: forbidden)', () => {
    const refused = new NotAuthorizedError('update', 'Book');
    expect(errorReply(refused, { rootPath: '/admin' })).toEqual({ status: 302, body: undefined, location: '/admin', flash: 'You are not authorized to perform this action.' });
    expect(errorReply(refused, { rootPath: '/admin', policyRefusal: 'forbidden' })).toEqual({ status: 403, body: { error: 'Forbidden' } });
  });

  it('one 422 message per action: "Failed to create/update/delete <ResourceName>", and "Validation failed" outside an action', () => {
    const errors = { title: ["can't be blank"], base: ['is locked'] };
    expect(refusedWriteReply('create', 'Blog post', errors)).toEqual({ status: 422, body: { errors, message: 'Failed to create Blog post' } });
    expect(refusedWriteReply('update', 'Blog post', errors)).toEqual({ status: 422, body: { errors, message: 'Failed to update Blog post' } });
    // "delete refused | { errors: { base: [<message>] }, message: "Failed to delete <ResourceName>" }"
    expect(refusedWriteReply('destroy', 'Blog post', errors)).toEqual({ status: 422, body: { errors: { base: ['is locked', "can't be blank"] }, message: 'Failed to delete Blog post' } });
    expect(errorReply(new RecordInvalidError(errors))).toEqual({ status: 422, body: { errors, message: 'Validation failed' } });
  });

  it('a browser page is sent to the page that resolves the error (303, return_to), any other client gets the JSON', () => {
    const browser = { rootPath: '/admin', browser: { returnTo: '/admin/api_tokens/new?x=1' } };
    expect(errorReply(new ConfirmationRequiredError(), browser)).toEqual({ status: 303, body: undefined, location: '/admin/confirm?return_to=%2Fadmin%2Fapi_tokens%2Fnew%3Fx%3D1' });
    expect(errorReply(new AuthenticationError(), { rootPath: '/admin', browser: {} })).toEqual({ status: 303, body: undefined, location: '/admin/login' });
    expect(errorReply(new ConfirmationRequiredError(), { rootPath: '/admin' })).toEqual({ status: 403, body: { error: 'Password confirmation required', confirm_path: '/admin/confirm' } });
    // A code the table names no page for answers a browser as any client.
    expect(errorReply(new ForbiddenError(), browser)).toEqual({ status: 403, body: { error: 'Forbidden' } });
  });

  it('a URL with nothing behind it is 404 { "error": "Not Found" }, with the details the error carries after it', () => {
    expect(errorReply(new NotFoundError())).toEqual({ status: 404, body: { error: 'Not Found' } });
    expect(errorReply(new NotFoundError({ message: 'No panel pages here' })).body).toEqual({ error: 'Not Found', message: 'No panel pages here' });
  });
});
