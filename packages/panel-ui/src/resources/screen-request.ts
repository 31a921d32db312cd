import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPanelError, RecordNotFoundError, secretsEqual, textProblem, type CompiledField, type CompiledResource, type ErrorMessages, type RecordId } from '@panel/core';
import { BadRequestError, isSameOriginRequest } from '@panel/api';
import { formField, formProblem } from '../forms/form-body.js';
import { panelViewer, type PanelViewer } from '../shell/panel-viewer.js';
import { sendPage, type ShellContext } from '../screens/screen-context.js';
import type { ResourcePaths } from './resource-paths.js';
import { ScreenActor } from './screen-actor.js';
import { discardUploads, readMultipartForm } from './multipart-form.js';

/** What the resource screens share: the shell's context, their paths, and the resources by route key. */
export interface ResourceScreensContext extends ShellContext {
  readonly resourcePaths: ResourcePaths;
  readonly byRouteKey: ReadonlyMap<string, CompiledResource>;
  /** The largest create or update form, in bytes (`panelScreens`' `formBodyLimit`). */
  readonly formBodyLimit: number;
}

/** One resource screen's request, once its user is known: who looks, and as whom the operations run. */
export interface OpenedScreen {
  readonly viewer: PanelViewer;
  readonly actor: ScreenActor;
}

/** A policy said no to a write that sets a `confirm: true` field without a recent password confirmation. */
export class ConfirmationNeededError extends Error {
  readonly code = 'PANEL_UI_CONFIRMATION_NEEDED';
}

type ScreenHandler<R extends FastifyRequest> = (request: R, reply: FastifyReply, screen: OpenedScreen) => Promise<FastifyReply>;

/**
 * A write's own checks that the URL alone decides (the record through the scope, the policy's
 * `create` or `update`): throws `RecordNotFoundError` or `NotAuthorizedError` to refuse; else
 * answers the fields the user may write with this form (a multipart form stores the file parts
 * of these fields only).
 */
export type WriteGuard<R extends FastifyRequest> = (request: R, screen: OpenedScreen) => Promise<readonly CompiledField[]>;

/** What a refusal or a bad request answers: its status, page title and message. */
function problemOf(error: unknown): { status: number; title: string; message: string } | undefined {
  if (isPanelError(error, 'PANEL_ERR_RECORD_NOT_FOUND')) return { status: 404, title: 'Not found', message: 'There is nothing here, or you may not see it.' };
  if (isPanelError(error, 'PANEL_ERR_UPLOAD_TOO_LARGE')) return { status: 413, title: 'The file is too large', message: (error as Error).message };
  if ((error as { code?: unknown } | null)?.code === 'PANEL_UI_FORM_TOO_LARGE') return { status: 413, title: 'The form is too large', message: (error as Error).message };
  if (isPanelError(error, 'PANEL_ERR_NOT_AUTHORIZED')) return { status: 403, title: 'Not allowed', message: (error as Error).message };
  if ((error as { code?: unknown } | null)?.code === 'PANEL_API_ERR_BAD_REQUEST') return { status: 400, title: 'Bad request', message: (error as Error).message };
  if (error instanceof ConfirmationNeededError) return { status: 403, title: 'Confirm your password', message: error.message };
  return undefined;
}

/** A page inside the shell saying what went wrong (400, 403, 404), never cached. */
export function sendProblem(context: ResourceScreensContext, request: FastifyRequest, reply: FastifyReply, viewer: PanelViewer, problem: { status: number; title: string; message: string }): Promise<FastifyReply> {
  return sendPage(context, request, reply, viewer, problem.status, 'problem', { title: problem.title }, { heading: problem.title, message: problem.message, confirmPath: problem.status === 403 && problem.title === 'Confirm your password' ? context.paths.confirm : undefined });
}

/**
 * Wraps a resource screen's handler: the viewer from the panel session (no user: a GET is sent
 * to sign in and back, a POST refused as an expired form); a form field with a NUL character
 * or a lone surrogate is a 400; a POST must come from this site (`isSameOriginRequest`) and
 * carry the session's CSRF token (else the "form expired" page, 403, and nothing is read).
 * A record outside the user's scope and a missing one answer the same 404 page; a policy
 * refusal a 403 page; a bad list query the API's 400 message, each inside the shell.
 * A multipart form's `guard` runs right after its token and before any other part is read, so
 * that a write the URL already refuses stores no file ("on a POST nothing is written"), and it
 * names the fields whose file parts are stored. A write refused once its form is read (the
 * policy's no to its values, any error) removes the files its form carried before it answers;
 * a 422 keeps them, pending, for the form it shows again.
 */
export function screenRoute<R extends FastifyRequest>(context: ResourceScreensContext, write: boolean, handler: ScreenHandler<R>, guard?: WriteGuard<R>) {
  return async (request: R, reply: FastifyReply): Promise<FastifyReply> => {
    // A refusal answers before a multipart body is read to its end; the rest of it must not be
    // taken for the next request on a kept-alive connection, so the connection closes after the
    // answer unless the form was read whole.
    if (write && request.isMultipart()) reply.header('connection', 'close');
    const viewer = await panelViewer(context.panel, context.loadUser, request, reply);
    if (!viewer.user) {
      if (write) return sendPage(context, request, reply, viewer, 403, 'expired', { title: 'The form expired' }, {});
      return reply.code(303).header('location', `${context.paths.signIn}?${new URLSearchParams({ return_to: request.url })}`).send();
    }
    const expired = () => sendPage(context, request, reply, viewer, 403, 'expired', { title: 'The form expired' }, {});
    const uploader = `user:${viewer.user.id}`;
    const user = viewer.user.record;
    let opened: OpenedScreen | undefined;
    const open = async () => (opened ??= { viewer, actor: await new ScreenActor(context.panel, user, uploader).prepare() });
    let received: readonly string[] = [];
    try {
      if (write && !isSameOriginRequest(request)) return await expired();
      const unreadable = write ? unreadableForm(request) : undefined;
      if (unreadable) return await sendProblem(context, request, reply, viewer, { status: 415, title: 'The form cannot be read', message: unreadable });
      const badQuery = queryProblem(request);
      if (badQuery) throw new BadRequestError(badQuery);
      if (write && request.isMultipart()) {
        // A form with a file control: its first part is the CSRF token, checked before any file is read.
        const read = await readMultipartForm(context.panel, request, { csrfToken: viewer.csrfToken, owner: uploader, fieldSize: context.formBodyLimit, beforeParts: guard && (async () => guard(request, await open())) });
        if ('refused' in read) return await expired();
        request.body = read.form;
        received = read.received;
        if (read.refusedFiles) refusedFilesByRequest.set(request, read.refusedFiles);
        reply.removeHeader('connection');
      }
      const problem = formProblem(request.body);
      if (problem) throw new BadRequestError(problem);
      if (write && (viewer.csrfToken === '' || !secretsEqual(formField(request.body, 'csrf_token'), viewer.csrfToken))) {
        // A multipart form that named its token once more, differently, after its files: they go too.
        await discardUploads(context.panel, uploader, received);
        return await expired();
      }
      return await handler(request, reply, await open());
    } catch (error) {
      await discardUploads(context.panel, uploader, received);
      const problem = problemOf(error);
      if (!problem) throw error;
      return sendProblem(context, request, reply, viewer, problem);
    }
  };
}

/** The body types a form is sent as (a browser's `enctype`s the screens use). */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/**
 * Why a POST's body is not a form the screens read (a 415), or undefined: a type other than a
 * browser's form (JSON, text, XML), or a compressed body (the screens decompress nothing).
 * Asked after the gate and the same-origin check, so that a visitor without a session or a
 * cross-site POST still gets the page any such POST gets.
 */
function unreadableForm(request: FastifyRequest): string | undefined {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  const type = request.headers['content-type'];
  const mediaType = type === undefined ? undefined : (type.split(';')[0] ?? '').trim().toLowerCase();
  let got: string | undefined;
  if (encoding && encoding !== 'identity') got = `Content-Encoding "${encoding.slice(0, 40)}"`;
  else if (mediaType !== undefined && mediaType !== '' && !FORM_TYPES.has(mediaType)) got = `Content-Type "${mediaType.slice(0, 100)}"`;
  return got && `The panel takes a form as a browser sends it (application/x-www-form-urlencoded or multipart/form-data, uncompressed), instead got ${got}. Nothing was saved.`;
}

/**
 * A query parameter or name with text the database cannot store (a NUL character, a lone
 * surrogate), in the API's own words (its request hygiene refuses the same query the same way),
 * so that the index's 400 page says what the API says; undefined when there is none.
 */
function queryProblem(request: FastifyRequest): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const name in query) {
    const problem = textProblem(name) ?? textProblem(query[name]);
    if (problem) return `Query parameter ${JSON.stringify(name)} ${problem}`;
  }
  return undefined;
}

const refusedFilesByRequest = new WeakMap<FastifyRequest, ErrorMessages>();

/**
 * The messages of the files a multipart form chose that the upload service refused as it read
 * them (too large for their field, a filename it cannot take), by field name; undefined when
 * none was. A write shows the form again with them (422) instead of saving without those files.
 */
export function refusedFilesOf(request: FastifyRequest): ErrorMessages | undefined {
  return refusedFilesByRequest.get(request);
}

/** The resource of a `:route_key`, or a `RecordNotFoundError` (the 404 page) for one the panel does not have. */
export function resourceOf(context: ResourceScreensContext, routeKey: string): CompiledResource {
  const resource = context.byRouteKey.get(routeKey);
  if (!resource) throw notFound(routeKey);
  return resource;
}

/** The 404 of the screens: the same page for an unknown resource, id or association, and a record outside the scope. */
export function notFound(what: string): Error {
  return new RecordNotFoundError('page', what);
}

/** An `:id` of the URL as a record id, or undefined when it cannot name one (then the screen answers 404). */
export function recordIdOf(raw: string, resource: CompiledResource): RecordId | undefined {
  return resource.key.fromText(raw);
}
