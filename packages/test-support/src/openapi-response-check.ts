import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>> } & Record<string, unknown>;
interface ResponseObject {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
}

/** One HTTP response as a test received it. */
export interface CheckedResponse {
  readonly method: string;
  readonly url: string;
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: string;
}

// ajv-formats is CommonJS: its default export is the function, or holds it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A Header Object, or the one of `components.headers` its `$ref` names. */
function headerObject(document: OpenApiDocument, declared: unknown): { required?: boolean; schema?: { type?: unknown } } {
  const ref = (declared as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return (declared ?? {}) as { required?: boolean };
  const name = /^#\/components\/headers\/(.+)$/.exec(ref)?.[1];
  const found = name === undefined ? undefined : (document.components as { headers?: Record<string, unknown> } | undefined)?.headers?.[name];
  if (found === undefined) throw new Error(`The OpenAPI document names the header ${ref}, which it does not define.`);
  return found as { required?: boolean; schema?: { type?: unknown } };
}

/** A header's text as its schema types it: an `integer` or `number` header is read as a number. */
function headerValue(value: unknown, schema: { type?: unknown }): unknown {
  const text = Array.isArray(value) ? value.join(', ') : String(value);
  return (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/** A path template of the document as a regular expression (`/api/x/{id}` matches `/api/x/7`). */
function pathPattern(template: string): RegExp {
  const source = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}$`);
}

/** The names a request's `fields=` lists (a sparse fieldset), or undefined when it sent none. */
function fieldset(url: string): Set<string> | undefined {
  const query = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)) : undefined;
  const values = query?.getAll('fields');
  return values === undefined || values.length === 0 ? undefined : new Set(values.flatMap((value) => value.split(',')));
}

/**
 * Whether an Ajv error is a record property that a sparse fieldset left out: as the `fields`
 * parameter documents, the records then carry `id` and exactly the fields listed, so the
 * record schema's other required properties are absent.
 */
function leftOutByFieldset(error: { keyword: string; instancePath: string; params: Record<string, unknown> }, url: string): boolean {
  const listed = fieldset(url);
  if (listed === undefined || error.keyword !== 'required' || !/^\/(records\/\d+|record)$/.test(error.instancePath)) return false;
  return !listed.has(String(error.params.missingProperty));
}

/**
 * Checks responses against an OpenAPI 3.1 document with Ajv (JSON Schema 2020-12): the
 * operation must document the status, the headers it marks `required` must be there, and a JSON body
 * must match the documented schema (a record answered with a sparse fieldset, `fields=`, may
 * leave out the properties not listed, as the parameter says). A response to a path or method the document does not
 * describe (a panel page, an unknown URL) is not checked and answers `undefined`; otherwise
 * the answer is the list of problems (empty when the response is as documented).
 */
export function openApiResponseChecker(document: OpenApiDocument): (response: CheckedResponse) => string[] | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const templates = Object.keys(document.paths).map((template) => ({ template, pattern: pathPattern(template) }));
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
  const headerValidators = new Map<object, ReturnType<Ajv2020['compile']>>();
  return (response) => {
    const path = response.url.split('?')[0]!;
    const match = templates.find(({ pattern }) => pattern.test(path));
    const method = response.method.toLowerCase() === 'head' ? 'get' : response.method.toLowerCase();
    const operation = match ? document.paths[match.template]![method] : undefined;
    if (!match || !operation) return undefined;
    const answer = operation.responses[String(response.statusCode)] ?? operation.responses[`${String(response.statusCode)[0]}XX`];
    if (!answer) return [`${response.method} ${match.template} answered ${response.statusCode}, which the document does not list (it lists ${Object.keys(operation.responses).join(', ')})`];
    const problems: string[] = [];
    for (const [header, declared] of Object.entries(answer.headers ?? {})) {
      // A Header Object is optional unless it says `required: true` (OpenAPI 3.1); it may be a `$ref` to components.headers.
      const object = headerObject(document, declared);
      const value = response.headers[header.toLowerCase()];
      if (value === undefined) {
        if (object.required) problems.push(`${response.method} ${match.template} ${response.statusCode} lacks the documented header ${header}`);
        continue;
      }
      // A header that is there must match its documented schema (an ETag's quotes, a Retry-After's whole seconds).
      if (!object.schema) continue;
      let validate = headerValidators.get(object.schema);
      if (!validate) {
        validate = ajv.compile(object.schema);
        headerValidators.set(object.schema, validate);
      }
      if (!validate(headerValue(value, object.schema))) problems.push(`${response.method} ${match.template} ${response.statusCode}: the header ${header} (${String(value)}) does not match its documented schema: ${ajv.errorsText(validate.errors)}`);
    }
    const media = answer.content?.['application/json'];
    if (!media) return problems;
    if (response.body === '' && response.method.toUpperCase() === 'HEAD') return problems;
    const key = pointer('paths', match.template, method, 'responses', String(response.statusCode), 'content', 'application/json', 'schema');
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#/${key}` });
      validators.set(key, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return [...problems, `${response.method} ${match.template} ${response.statusCode} is documented as JSON, but its body is not JSON: ${response.body.slice(0, 80)}`];
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).filter((error) => !leftOutByFieldset(error, response.url));
      if (errors.length > 0) problems.push(`${response.method} ${match.template} ${response.statusCode}: the body does not match the documented schema: ${ajv.errorsText(errors)}`);
    }
    return problems;
  };
}
