import { hkdfSync, randomBytes } from 'node:crypto';
import { isSensitiveField, OneTimeReveals, type CompiledResource, type Panel } from '@panel/core';
import { controlName, type TypedValues } from './record-form.js';

/** How long a form's values wait for the confirmation they were kept for: 30 minutes (a pending upload they name lives an hour). */
const DRAFT_TTL_MILLIS = 30 * 60 * 1000;

/** The prefix of a draft's id among the one-time reveals. */
const ID_PREFIX = 'form_draft:';

/** A draft's handle: 144 random bits, base64url. */
const HANDLE = /^[A-Za-z0-9_-]{24}$/;

/** What a draft holds: the form it was typed into, and the values by control name. */
interface DraftBody {
  readonly form: string;
  readonly values: [string, string[]][];
}

/** The key that seals drafts: derived from the session secret that seals sessions (the first), so there is no second secret. */
function draftKey(panel: Panel): Buffer {
  const secrets = panel.config.sessionSecret;
  const secret = typeof secrets === 'string' ? secrets : secrets?.[0];
  if (!secret) throw new Error('FormDrafts: the panel has no session secret. Fix: give createPanel a sessionSecret.');
  return Buffer.from(hkdfSync('sha256', secret, 'panel-ui', 'form drafts v1', 32));
}

/** The values as stored, or undefined when they are not a draft's (a changed format). */
function draftBody(text: string): DraftBody | undefined {
  try {
    const body = JSON.parse(text) as Partial<DraftBody>;
    const wellFormed = typeof body.form === 'string' && Array.isArray(body.values) && body.values.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string' && Array.isArray(pair[1]) && pair[1].every((one) => typeof one === 'string'));
    return wellFormed ? (body as DraftBody) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a user typed into a new or edit form, kept while they confirm their password (a
 * `confirm: true` field is offered only after a recent confirmation), then shown again in the
 * form as a 422 shows what was typed. A draft lives in the database among the one-time reveals
 * (`OneTimeReveals`: any process behind a load balancer restores it), sealed (AES-256-GCM under
 * a key derived from the session secret), bound to the browser session that made it (its CSRF
 * token) and to its form's path, taken by its first look, and gone after 30 minutes. The form's
 * URL names it by a random handle (`?draft=…`), never by the values. Password fields and other
 * sensitive fields are never kept.
 *
 * @example
 * const handle = await drafts.hold({ resource, form: '/panel/resources/users/1/edit', typed, sessionKey: viewer.csrfToken });
 * const typed = await drafts.take({ handle, form: '/panel/resources/users/1/edit', sessionKey: viewer.csrfToken }); // once
 */
export class FormDrafts {
  readonly #reveals: OneTimeReveals;

  constructor(panel: Panel) {
    this.#reveals = new OneTimeReveals({ database: panel.database, key: () => draftKey(panel), ttlMillis: DRAFT_TTL_MILLIS, now: panel.sessions?.options.now });
  }

  /** Keeps what was typed into the form at `form` (less the sensitive fields) for the session `sessionKey`; answers the draft's handle. */
  async hold(input: { readonly resource: CompiledResource; readonly form: string; readonly typed: TypedValues; readonly sessionKey: string }): Promise<string> {
    const sensitive = new Set(input.resource.fields.filter(isSensitiveField).map(controlName));
    const body: DraftBody = { form: input.form, values: [...input.typed].filter(([name]) => !sensitive.has(name)).map(([name, values]) => [name, [...values]]) };
    const handle = randomBytes(18).toString('base64url');
    await this.#reveals.hold(`${ID_PREFIX}${handle}`, JSON.stringify(body), input.sessionKey);
    return handle;
  }

  /**
   * What was typed, once, to the session that kept it and on the form it was typed into;
   * undefined for anything else (no handle, another session's, another form's, taken, expired).
   */
  async take(input: { readonly handle: unknown; readonly form: string; readonly sessionKey: string }): Promise<TypedValues | undefined> {
    if (typeof input.handle !== 'string' || !HANDLE.test(input.handle)) return undefined;
    const text = await this.#reveals.take(`${ID_PREFIX}${input.handle}`, input.sessionKey);
    const body = text === undefined ? undefined : draftBody(text);
    return body && body.form === input.form ? new Map(body.values) : undefined;
  }
}
