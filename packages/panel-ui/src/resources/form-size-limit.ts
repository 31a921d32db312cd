import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorHandler } from '@panel/api';
import { panelViewer } from '../shell/panel-viewer.js';
import { sendProblem, type ResourceScreensContext } from './screen-request.js';
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
  const otherErrors = apiErrorHandler({ rootPath: context.panel.config.rootPath });
  return {
    bodyLimit: limit,
    errorHandler: async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return otherErrors(error, request, reply);
      reply.header('connection', 'close');
      const viewer = await panelViewer(context.panel, context.loadUser, request, reply);
      return sendProblem(context, request, reply, viewer, { status: 413, title: 'The form is too large', message: FormTooLargeError.ofBytes(limit).message });
    },
  };
}
