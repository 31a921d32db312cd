import { AUTHORIZATION, type BenchRequest, type Endpoint } from './endpoints.js';

/** What a server answered one request. */
interface Answer {
  readonly status: number;
  readonly body: string;
}

async function send(origin: string, request: BenchRequest): Promise<Answer> {
  const response = await fetch(`${origin}${request.path}`, {
    method: request.method,
    headers: { authorization: AUTHORIZATION, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: response.status, body: await response.text() };
}

/** The structure of a JSON value: its keys in order and the types of the leaves (values aside). */
export function jsonShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonShape);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, jsonShape(inner)]));
  return value === null ? 'null' : typeof value;
}

/**
 * Sends the endpoint's check requests to both servers and says how they differ, if they do:
 * byte-identical bodies for reads; for writes, the same status and the same JSON shape.
 */
export async function compareResponses(endpoint: Endpoint, api: string, baseline: string): Promise<string | undefined> {
  for (const n of endpoint.checks) {
    const request = endpoint.request(n);
    const [a, b] = await Promise.all([send(api, request), send(baseline, request)]);
    const where = `${endpoint.name}: ${request.method} ${request.path}`;
    if (a.status !== b.status) return `${where}: status ${a.status} (API) ≠ ${b.status} (baseline); API body ${a.body.slice(0, 300)}; baseline body ${b.body.slice(0, 300)}`;
    if (endpoint.compare === 'body' && a.body !== b.body) {
      let at = 0;
      while (a.body[at] === b.body[at]) at += 1;
      return `${where}: bodies differ at byte ${at}: API …${a.body.slice(Math.max(0, at - 80), at + 80)}… baseline …${b.body.slice(Math.max(0, at - 80), at + 80)}…`;
    }
    if (endpoint.compare === 'shape') {
      const [shapeA, shapeB] = [JSON.stringify(jsonShape(JSON.parse(a.body))), JSON.stringify(jsonShape(JSON.parse(b.body)))];
      if (shapeA !== shapeB) return `${where}: JSON shapes differ: API ${shapeA} baseline ${shapeB}`;
    }
  }
  return undefined;
}
