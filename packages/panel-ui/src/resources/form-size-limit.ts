import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { screensErrorHandler } from '../screens/unavailable-page.js';
import { panelViewer } from '../shell/panel-viewer.js';
import type { ResourceScreensContext } from './screen-request.js';
import { sendPage, type ShellContext } from '../screens/screen-context.js';
import { FORM_BODY_LIMIT } from '../forms/form-body.js';
import { FormTooLargeError } from './multipart-form.js';

/** The options `formSizeLimit` gives a route: its body limit and its error handler. */
export interface FormSizeLimitOptions {
  readonly bodyLimit: number;
  readonly errorHandler: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/**
 * The route options of a resource screen's create or update: its form may be as large as
 * `formBodyLimit` (by default the API's own body limit, so that the screens take what the API
 * takes; `limit` for another form, such as the delete confirmation's 32 KB), and a larger one
 * answers a 413 page inside the shell, as a file too large does,
 * instead of the JSON error of the screens' scope. Any other error goes on to that handler. The
 * body was not read: the connection closes after the answer.
 *
 * @example
 * app.post(`${paths.base}/:route_key`, formSizeLimit(context), screenRoute(context, true, handler, guard));
 */
export function formSizeLimit(context: ResourceScreensContext, limit = context.formBodyLimit): FormSizeLimitOptions {
  return { bodyLimit: limit, errorHandler: formErrorHandler(context, limit) };
}

/**
 * The screens' error handler: a body over `limit` (by default the screens' forms' 32 KB) is the
 * 413 page inside the shell, saying the limit, instead of the JSON error any
 * other error gets (`screensErrorHandler`: no internal code or message; an outage is a page). The body was not read: the
 * connection closes after the answer. The screens' scope uses it for every screen (the token
 * screens' 32 KB forms included); `formSizeLimit` for a route with a limit of its own.
 */
export function formErrorHandler(context: ShellContext, limit = FORM_BODY_LIMIT) {
  const otherErrors = screensErrorHandler(context.panel.config.rootPath);
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return otherErrors(error, request, reply);
    reply.header('connection', 'close');
    const viewer = await panelViewer(context.panel, context.loadUser, request, reply);
    const title = 'The form is too large';
    return sendPage(context, request, reply, viewer, 413, 'problem', { title }, { heading: title, message: FormTooLargeError.ofBytes(limit).message });
  };
}
