import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { writePanelSession } from '@panel/api';
import { humanize, isPanelError, NotAuthorizedError, operations, type CompiledField, type CompiledResource, type ErrorMessages, type PasswordChange, type RecordId, type RecordRow } from '@panel/core';
import { setNotice, type PanelViewer } from '../shell/panel-viewer.js';
import { isolatedText } from '../shell/bidi-isolation.js';
import { seeOther, sendPage } from '../screens/screen-context.js';
import { listScreen, SCREENS_PER_PAGE_COOKIE } from './list-screen.js';
import { withoutEmptyControls } from './list-filters.js';
import { queryPairs, withQuery } from './resource-paths.js';
import { controlName, formModel, postedAttributes, typedValues, type TypedValues } from './record-form.js';
import { editableRecord, mayCreate } from './write-checks.js';
import { SHOWN_VALUES, untouchedAndConflicts } from './form-changes.js';
import { FormDrafts } from './form-drafts.js';
import { formSizeLimit } from './form-size-limit.js';
import { FORM_BODY_LIMIT, formField } from '../forms/form-body.js';
import { recordLabel, showScreen } from './show-screen.js';
import { ConfirmationNeededError, notFound, recordIdOf, refusedFilesOf, resourceOf, screenRoute, type OpenedScreen, type ResourceScreensContext } from './screen-request.js';
import { withoutRefusedFiles } from './refused-files.js';
import type { ScreenActor } from './screen-actor.js';

type ScreenRoute = { Params: { route_key: string; id?: string; association?: string }; Querystring: Record<string, unknown> };
type ScreenRequest = FastifyRequest<ScreenRoute>;

const invalidErrors = (error: unknown): ErrorMessages | undefined => (isPanelError(error, 'PANEL_ERR_RECORD_INVALID') ? (error as unknown as { errors: ErrorMessages }).errors : undefined);

/** The `:id` of the request, or the 404 page. */
function idOf(request: ScreenRequest, resource: CompiledResource): RecordId {
  const id = recordIdOf(request.params.id ?? '', resource);
  if (id === undefined) throw notFound(request.params.id ?? '');
  return id;
}

/**
 * The resource screens under `<root_path>/resources` (the Contract of the screens' design):
 * index, show, new + create, edit + update, delete confirmation + destroy, and an association's
 * list. Each handler reads the request, calls the same operation as the API with the signed-in
 * user as the actor, and renders; success after a POST is a 303 with a notice, a refused write
 * re-renders with 422 and the API's messages.
 */
export function registerResourceScreens(app: FastifyInstance, context: ResourceScreensContext): void {
  const paths = context.resourcePaths;
  const { panel } = context;
  const notice = (reply: FastifyReply, text: string) => setNotice(reply, panel.config.rootPath, text);
  const drafts = new FormDrafts(panel);
  // A write that sets a `confirm: true` field needs the password typed recently, as on the API's panel-session path.
  const confirmFields = (viewer: PanelViewer) => (fields: readonly CompiledField[]) => {
    if (!panel.sessions!.isRecentlyConfirmed(viewer.session)) throw new ConfirmationNeededError(`Changing ${fields.map((field) => humanize(field.name)).join(', ')} needs your password again. Confirm it, then send the form again.`);
  };
  // The fields a form lets its user write: those the user may write, less a `confirm: true` one without a recent confirmation (the form offers no control for it).
  const formFields = async (screen: OpenedScreen, resource: CompiledResource, row: RecordRow | null) => {
    const confirmed = panel.sessions!.isRecentlyConfirmed(screen.viewer.session);
    return (await screen.actor.access(resource).writable(row ? 'update' : 'create', row)).filter((field) => confirmed || field.definition.options.confirm !== true);
  };
  // A password change ends every session of that user (core's update does it); the viewer's own session holds.
  const passwordChanged = (request: FastifyRequest, reply: FastifyReply, viewer: PanelViewer) => ({ userId, generation }: PasswordChange) => {
    if (viewer.session && viewer.session.data.userId === userId) writePanelSession(panel, request, reply, panel.sessions!.renew(viewer.session, generation));
  };

  const list = async (request: ScreenRequest, reply: FastifyReply, screen: OpenedScreen, resource: CompiledResource, path: string, parent?: { label: string; href: string; routeKey: string; narrow: ReturnType<NonNullable<NonNullable<CompiledField['kind']['association']>['related']>> }) => {
    const pairs = queryPairs(request.query);
    const cleaned = withoutEmptyControls(pairs);
    if (cleaned) return seeOther(reply, withQuery(path, cleaned));
    const shown = await listScreen({ context, actor: screen.actor, resource, query: request.query, pairs, cookiePerPage: request.cookies[SCREENS_PER_PAGE_COOKIE], path, narrow: parent?.narrow });
    if (shown.perPageFromQuery) reply.setCookie(SCREENS_PER_PAGE_COOKIE, String(shown.perPage), { path: paths.base, httpOnly: true, sameSite: 'lax' });
    const may = await screen.actor.may(resource, 'create');
    // The template prints "of <parent>" with the parent's name isolated; the <title> isolates it with FSI … PDI.
    const heading = humanize(resource.naming.routeKey);
    const title = parent ? `${heading} of ${isolatedText(parent.label)}` : heading;
    const model = { ...shown.model, heading, parentHref: parent?.href, parentLabel: parent?.label, newHref: may && !parent ? paths.newRecord(resource.naming.routeKey) : undefined, newLabel: `New ${resource.naming.humanName.toLowerCase()}` };
    return sendPage(context, request, reply, screen.viewer, 200, 'resourceIndex', { title, resource: parent?.routeKey ?? resource.naming.routeKey }, model);
  };

  app.get(`${paths.base}/:route_key`, screenRoute(context, false, async (request: ScreenRequest, reply, screen) => {
    const resource = resourceOf(context, request.params.route_key);
    return list(request, reply, screen, resource, paths.index(resource.naming.routeKey));
  }));

  app.get(`${paths.base}/:route_key/:id`, screenRoute(context, false, async (request: ScreenRequest, reply, screen) => {
    const resource = resourceOf(context, request.params.route_key);
    const { label, model } = await showScreen(context, screen.actor, resource, idOf(request, resource));
    return sendPage(context, request, reply, screen.viewer, 200, 'resourceShow', { title: `${isolatedText(label)} · ${humanize(resource.naming.routeKey)}`, resource: resource.naming.routeKey }, model);
  }));

  app.get(`${paths.base}/:route_key/:id/:association`, screenRoute(context, false, async (request: ScreenRequest, reply, screen) => {
    const resource = resourceOf(context, request.params.route_key);
    const id = idOf(request, resource);
    const parent = await operations.show({ ...screen.actor.input(resource), id });
    const access = screen.actor.access(resource);
    // Only an association the user reads on this record's show view lists anything; any other name is the 404 page.
    const field = access.readable('show').find((candidate) => candidate.name === request.params.association && candidate.kind.association?.related !== undefined);
    if (!field || !access.shows(field, 'show', parent)) throw notFound(request.params.association ?? '');
    const target = panel.resources.get(field.target!)!;
    const href = paths.record(resource.naming.routeKey, id);
    return list(request, reply, screen, target, paths.association(resource.naming.routeKey, id, field.name), { label: recordLabel(resource, parent), href, routeKey: resource.naming.routeKey, narrow: field.kind.association!.related!(field, id) });
  }));

  /** Renders the new or edit form (200, or 422 with the messages and what was typed). */
  const sendForm = async (request: ScreenRequest, reply: FastifyReply, screen: OpenedScreen, resource: CompiledResource, id: RecordId | null, typed: TypedValues, errors: ErrorMessages, status: number) => {
    const { actor, viewer } = screen;
    const row = id === null ? null : await editableRecord(actor, resource, id);
    const form = await formModel({ context, actor, resource, view: row ? 'edit' : 'new', row, typed, errors, confirmed: panel.sessions!.isRecentlyConfirmed(viewer.session) });
    const routeKey = resource.naming.routeKey;
    const label = row ? recordLabel(resource, row) : undefined;
    // An edit form's heading is "Edit “<label>”" (the template isolates the label); the <title> isolates it with FSI … PDI.
    const heading = label !== undefined ? `Edit “${isolatedText(label)}”` : `New ${resource.naming.humanName.toLowerCase()}`;
    const model = {
      ...form,
      heading,
      action: row ? paths.record(routeKey, row[resource.primaryKey]) : paths.index(routeKey),
      submitLabel: row ? 'Save changes' : `Create ${resource.naming.humanName.toLowerCase()}`,
      cancelHref: row ? paths.record(routeKey, row[resource.primaryKey]) : paths.index(routeKey),
      indexHref: paths.index(routeKey),
      indexLabel: humanize(routeKey),
      recordHref: row ? paths.record(routeKey, row[resource.primaryKey]) : undefined,
      recordLabel: label,
    };
    return sendPage(context, request, reply, viewer, status, 'resourceForm', { title: `${form.hasErrors ? 'Error: ' : ''}${heading}`, resource: routeKey }, model);
  };

  // What was typed before a password confirmation (`?draft=`), shown again as a 422 shows it; else the prefill (new) or the record (edit).
  const kept = (request: ScreenRequest, screen: OpenedScreen, form: string) =>
    request.query.draft === undefined ? undefined : drafts.take({ handle: request.query.draft, form, sessionKey: screen.viewer.csrfToken });

  app.get(`${paths.base}/:route_key/new`, screenRoute(context, false, async (request: ScreenRequest, reply, screen) => {
    const resource = resourceOf(context, request.params.route_key);
    await mayCreate(screen.actor, resource);
    const typed = (await kept(request, screen, paths.newRecord(resource.naming.routeKey))) ?? typedValues(request.query);
    return sendForm(request, reply, screen, resource, null, typed, {}, 200);
  }));

  app.get(`${paths.base}/:route_key/:id/edit`, screenRoute(context, false, async (request: ScreenRequest, reply, screen) => {
    const resource = resourceOf(context, request.params.route_key);
    const id = idOf(request, resource);
    const typed = (await kept(request, screen, paths.edit(resource.naming.routeKey, id))) ?? new Map();
    return sendForm(request, reply, screen, resource, id, typed, {}, 200);
  }));

  /**
   * "Confirm your password" on a form (`then=confirm`): the URL's checks as for the write, then
   * what was typed kept as a draft for this session (passwords never), and a 303 to the confirm
   * page, which sends the user back to the form with the draft's handle (already confirmed: at
   * once). Nothing is written; the values travel in no URL. `lapsed`: the form was sent after
   * its confirmation lapsed, and the notice back on the form asks for its passwords again.
   */
  const confirmFirst = async (reply: FastifyReply, screen: OpenedScreen, resource: CompiledResource, id: RecordId | null, typed: TypedValues, lapsed = false) => {
    if (id === null) await mayCreate(screen.actor, resource);
    else await editableRecord(screen.actor, resource, id);
    const form = id === null ? paths.newRecord(resource.naming.routeKey) : paths.edit(resource.naming.routeKey, id);
    const handle = await drafts.hold({ resource, form, typed, sessionKey: screen.viewer.csrfToken });
    const back = `${form}?${new URLSearchParams({ draft: handle })}`;
    if (lapsed) notice(reply, 'Your password was needed again to save this. What you typed is back: type any password again, then save.');
    if (panel.sessions!.isRecentlyConfirmed(screen.viewer.session)) return seeOther(reply, back);
    return seeOther(reply, `${context.paths.confirm}?${new URLSearchParams({ return_to: back })}`);
  };

  /** Runs a create or update from the posted form: 303 to the record with a notice, or the form again with 422. */
  const write = async (request: ScreenRequest, reply: FastifyReply, screen: OpenedScreen, resource: CompiledResource, id: RecordId | null) => {
    const typed = typedValues(request.body as Record<string, unknown>);
    if (formField(request.body, 'then') === 'confirm') return confirmFirst(reply, screen, resource, id, typed);
    let attributes = postedAttributes(resource, typed);
    if (id !== null) {
      // Only what the user changed is written; a field changed meanwhile by someone else and by this form too is a 409, nothing written.
      const row = await editableRecord(screen.actor, resource, id);
      const fields = await screen.actor.access(resource).writable('update', row);
      const compared = untouchedAndConflicts({ fields, row, posted: (field) => typed.get(controlName(field)), shown: formField(request.body, SHOWN_VALUES), attributes });
      if (Object.keys(compared.conflicts).length > 0) return sendForm(request, reply, screen, resource, id, typed, compared.conflicts, 409);
      attributes = compared.attributes;
    }
    const input = { ...screen.actor.input(resource), attributes, confirmFields: confirmFields(screen.viewer), passwordChanged: passwordChanged(request, reply, screen.viewer) };
    try {
      const refusedFiles = refusedFilesOf(request); // a chosen file refused as it was read: the form again, nothing written
      if (refusedFiles) return await sendForm(request, reply, screen, resource, id, typed, refusedFiles, 422);
      const row = id === null ? await operations.create(input) : await operations.update({ ...input, id });
      notice(reply, `${resource.naming.humanName} ${id === null ? 'created' : 'saved'}.`);
      return seeOther(reply, paths.record(resource.naming.routeKey, row[resource.primaryKey] as RecordId));
    } catch (error) {
      // Sent after its confirmation lapsed: kept while the user confirms, as "Confirm your password" keeps it.
      if (error instanceof ConfirmationNeededError) return confirmFirst(reply, screen, resource, id, typed, true);
      const errors = invalidErrors(error);
      if (!errors) throw error;
      const shown = await withoutRefusedFiles({ panel, owner: screen.actor.uploader, resource, typed, errors });
      return sendForm(request, reply, screen, resource, id, shown.typed, shown.errors, 422);
    }
  };

  // A form with a file is checked against the URL (scope, policy) before its files are read: a
  // refused write stores no bytes, and only the file parts of fields the user may write are stored.
  app.post<ScreenRoute>(
    `${paths.base}/:route_key`,
    formSizeLimit(context),
    screenRoute(
      context,
      true,
      async (request: ScreenRequest, reply, screen) => write(request, reply, screen, resourceOf(context, request.params.route_key), null),
      async (request: ScreenRequest, screen) => {
        const resource = resourceOf(context, request.params.route_key);
        await mayCreate(screen.actor, resource);
        return formFields(screen, resource, null);
      },
    ),
  );
  app.post<ScreenRoute>(
    `${paths.base}/:route_key/:id`,
    formSizeLimit(context),
    screenRoute(
      context,
      true,
      async (request: ScreenRequest, reply, screen) => write(request, reply, screen, resourceOf(context, request.params.route_key), idOf(request, resourceOf(context, request.params.route_key))),
      async (request: ScreenRequest, screen) => {
        const resource = resourceOf(context, request.params.route_key);
        return formFields(screen, resource, await editableRecord(screen.actor, resource, idOf(request, resource)));
      },
    ),
  );

  /** The delete confirmation (200), or again with the refusal's messages (422). */
  const sendDelete = async (request: ScreenRequest, reply: FastifyReply, actor: ScreenActor, viewer: PanelViewer, resource: CompiledResource, id: RecordId, errors: readonly string[], status: number) => {
    const row = await operations.show({ ...actor.input(resource), id });
    if (!(await actor.may(resource, 'destroy', row))) throw new NotAuthorizedError('destroy', resource.naming.humanName);
    const routeKey = resource.naming.routeKey;
    const label = recordLabel(resource, row);
    const model = { errors, recordLabel: label, humanName: resource.naming.humanName.toLowerCase(), action: paths.remove(routeKey, id), recordHref: paths.record(routeKey, id), indexHref: paths.index(routeKey), indexLabel: humanize(routeKey) };
    return sendPage(context, request, reply, viewer, status, 'resourceDelete', { title: `${errors.length > 0 ? 'Error: ' : ''}Delete “${isolatedText(label)}”`, resource: routeKey }, model);
  };

  app.get(`${paths.base}/:route_key/:id/delete`, screenRoute(context, false, async (request: ScreenRequest, reply, screen) =>
    sendDelete(request, reply, screen.actor, screen.viewer, resourceOf(context, request.params.route_key), idOf(request, resourceOf(context, request.params.route_key)), [], 200)));

  app.post<ScreenRoute>(`${paths.base}/:route_key/:id/delete`, formSizeLimit(context, FORM_BODY_LIMIT), screenRoute(context, true, async (request: ScreenRequest, reply, screen) => {
    const resource = resourceOf(context, request.params.route_key);
    const id = idOf(request, resource);
    try {
      await operations.destroy({ ...screen.actor.input(resource), id });
    } catch (error) {
      const errors = invalidErrors(error);
      if (!errors) throw error;
      const messages = Object.entries(errors).flatMap(([name, list]) => list.map((message) => (name === 'base' ? message : `${humanize(name)} ${message}`)));
      return sendDelete(request, reply, screen.actor, screen.viewer, resource, id, messages, 422);
    }
    notice(reply, `${resource.naming.humanName} deleted.`);
    return seeOther(reply, paths.index(resource.naming.routeKey));
  }));

  // Any other URL under the screens is the same 404 page.
  app.all(`${paths.base}/*`, screenRoute(context, false, async (request: ScreenRequest) => {
    throw notFound(request.url);
  }));
}
