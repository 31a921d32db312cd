import { requestHeaders, type BenchRequest, type Endpoint } from './endpoints.js';

/** What a server answered one request. */
interface Answer {
  readonly status: number;
  readonly body: string;
}

async function send(origin: string, request: BenchRequest): Promise<Answer> {
  const response = await fetch(`${origin}${request.path}`, {
    method: request.method,
    headers: requestHeaders(request),
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

/** How two answers to one request differ, if they do (`compare`: as the endpoint says, `mixed` by method). */
function difference(endpoint: Endpoint, request: BenchRequest, a: Answer, b: Answer): string | undefined {
  const where = `${endpoint.name}: ${request.method} ${request.path}`;
  if (a.status !== b.status) return `${where}: status ${a.status} (API) ≠ ${b.status} (${endpoint.against}); API body ${a.body.slice(0, 300)}; ${endpoint.against} body ${b.body.slice(0, 300)}`;
  const compare = endpoint.compare === 'mixed' ? (request.method === 'GET' ? 'body' : 'shape') : endpoint.compare;
  if (compare === 'body' && a.body !== b.body) {
    let at = 0;
    while (a.body[at] === b.body[at]) at += 1;
    return `${where}: bodies differ at byte ${at}: API …${a.body.slice(Math.max(0, at - 80), at + 80)}… ${endpoint.against} …${b.body.slice(Math.max(0, at - 80), at + 80)}…`;
  }
  if (compare === 'shape') {
    const [shapeA, shapeB] = [JSON.stringify(jsonShape(JSON.parse(a.body))), JSON.stringify(jsonShape(JSON.parse(b.body)))];
    if (shapeA !== shapeB) return `${where}: JSON shapes differ: API ${shapeA} ${endpoint.against} ${shapeB}`;
  }
  return undefined;
}

/**
 * Sends the endpoint's check requests to both servers and says how they differ, if they do:
 * byte-identical bodies for reads; for writes, the same status and the same JSON shape. An
 * endpoint with a `prepare` step (its requests change the data the next ones read) is sent to
 * one server after the other, in order, with the data put back before each; the others to
 * both at once.
 */
export async function compareResponses(endpoint: Endpoint, api: string, reference: string): Promise<string | undefined> {
  const requests = endpoint.checks.map((n) => endpoint.request(n));
  if (endpoint.prepare) {
    const answers: Answer[][] = [];
    for (const origin of [api, reference]) {
      await endpoint.prepare('checks');
      const answersOfOne: Answer[] = [];
      for (const request of requests) answersOfOne.push(await send(origin, request));
      answers.push(answersOfOne);
    }
    for (const [i, request] of requests.entries()) {
      const found = difference(endpoint, request, answers[0]![i]!, answers[1]![i]!);
      if (found) return found;
    }
    return undefined;
  }
  for (const request of requests) {
    const [a, b] = await Promise.all([send(api, request), send(reference, request)]);
    const found = difference(endpoint, request, a, b);
    if (found) return found;
  }
  return undefined;
}
