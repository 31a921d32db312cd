import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '@panel/api';
import { textProblem } from '@panel/core';

/** A parsed HTML form: `name` → value, and `name[]` → every value posted under that name. */
export type FormBody = Record<string, string | string[]>;

/**
 * The largest form the screens accept unless a route says otherwise (the token and settings
 * screens, a delete confirmation: small forms by design); a bigger body answers 413 before any
 * handler runs.
 */
export const FORM_BODY_LIMIT = 32 * 1024;

/**
 * The largest create or update form of the resource screens by default: 1 MiB, the API mount's
 * default `bodyLimit`, so that a form takes a value the API takes (URL-encoding triples each
 * byte of non-ASCII text). `panelScreens`' `formBodyLimit` sets it.
 */
export const RESOURCE_FORM_BODY_LIMIT = 1024 * 1024;

/** Why a form the screens' parser read cannot be used (found after the gate answered). */
const PROBLEMS = new WeakMap<object, string>();

/** Well-formed percent escapes only (`%` followed by two hex digits), as `decodeURIComponent` needs. */
const WELL_FORMED_ESCAPES = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;

/**
 * Whether a posted name or value encodes bytes that are not UTF-8 text: a lone surrogate
 * (`%ED%A0%80`) or a broken sequence. `URLSearchParams` would quietly turn them into U+FFFD,
 * changing what the user sent; the form is refused instead. A malformed escape (`%zz`) is kept
 * literally, as browsers and `URLSearchParams` do.
 */
function notUtf8(raw: string): boolean {
  const text = raw.replaceAll('+', ' ');
  if (!WELL_FORMED_ESCAPES.test(text)) return false;
  try {
    decodeURIComponent(text);
    return false;
  } catch {
    return true;
  }
}

function readForm(body: string): { form: FormBody; problem: string | undefined } {
  const form: FormBody = {};
  let problem: string | undefined;
  for (const pair of body.split('&')) {
    const [rawName = '', ...rawValue] = pair.split('=');
    if (notUtf8(rawName) || notUtf8(rawValue.join('='))) {
      const [name = ''] = new URLSearchParams(pair).keys();
      problem ??= `Form field ${JSON.stringify(name)} must be valid Unicode text (it has a lone surrogate or bytes that are not UTF-8)`;
    }
  }
  for (const [name, value] of new URLSearchParams(body)) {
    const found = textProblem(name) ?? textProblem(value);
    if (found) problem ??= `Form field ${JSON.stringify(name)} ${found}`;
    if (name.endsWith('[]')) {
      const list = form[name];
      form[name] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      form[name] = value;
    }
  }
  return { form, problem };
}

/**
 * Parses an `application/x-www-form-urlencoded` body. A name ending in `[]` collects all its
 * values in posting order; any other name keeps its last value. A name or value with text the
 * database cannot store (a NUL character, a lone surrogate) throws a `BadRequestError` (400)
 * naming the field, before any handler or query sees it. An app's own pages (sign-in,
 * confirmation) use it as their form parser, so every panel form refuses the same input.
 *
 * @example
 * app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
 *   try { done(null, parseFormBody(body as string)); } catch (error) { done(error as Error, undefined); }
 * });
 */
export function parseFormBody(body: string): FormBody {
  const { form, problem } = readForm(body);
  if (problem) throw new BadRequestError(problem);
  return form;
}

/**
 * What is wrong with a form the screens' parser read (a field with a NUL character or a lone
 * surrogate), or undefined. The screens' gate answers first and asks this after, so a refused
 * user gets the same 404 whatever they post.
 */
export function formProblem(body: unknown): string | undefined {
  return body !== null && typeof body === 'object' ? PROBLEMS.get(body) : undefined;
}

/**
 * Parses `application/x-www-form-urlencoded` bodies in the screens' scope, as `parseFormBody`
 * does, except that a problem is kept for `formProblem` (asked after the gate) instead of
 * thrown. A name ending in `[]` (the grant checkboxes, `grants[]`) collects all its values in
 * posting order; any other name keeps its last value, so a duplicated field cannot smuggle an
 * array into a string.
 */
export function registerFormParser(app: FastifyInstance): void {
  // The screens take forms only. Any other body (JSON, text, malformed) is read and ignored, so
  // that the gate still answers first: a refused user gets the same 404 whatever they post.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, (_request, _body, done) => done(null, undefined));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const { form, problem } = readForm(body as string);
    if (problem) PROBLEMS.set(form, problem);
    done(null, form);
  });
}

/** One text field of a form; '' when absent or posted as a list. */
export function formField(body: unknown, name: string): string {
  const value = (body as FormBody | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a list field (`grants[]`); [] when absent. */
export function formList(body: unknown, name: string): string[] {
  const value = (body as FormBody | undefined)?.[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}
