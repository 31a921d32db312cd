// The demo's OpenAPI document as third-party tools read it (issue "The document exact"):
// Redocly CLI and Spectral lint it, and Prism's validation proxy checks live traffic against it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDatabaseKinds } from '@panel/test-support';
import type { DemoApp } from '../src/build-app.js';
import { redoclyLint, spectralLint, startPrismProxy, type PrismProxy } from './contract-tools.js';
import { ADMIN, READER, describeOnEachDatabase } from './demo-app-support.js';

const DOCUMENT = '/api/resources/v1/openapi.json';
const V1 = '/api/resources/v1';

type OpenApiDocument = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>> };

/** One exchange through Prism: what was sent, the status, and what Prism found. */
interface Exchange {
  readonly request: string;
  readonly operation: string;
  readonly status: number;
  /** The request breaks the document on purpose (no credentials, `page=0`): only its answer must hold. */
  readonly invalidRequest: boolean;
  readonly violations: { location: string[]; severity: string; message: string }[];
}

/**
 * An HTTP suite over every operation of the document, sent through Prism's validation proxy:
 * lists (with `per_page` over the clamp, a sort, a page past the last), a create from the
 * document's own body example, show, PATCH and PUT from the update example, the traversals,
 * delete, and the error answers (401, 404, 400). Returns every exchange with its violations.
 */
async function contractSuite(prism: PrismProxy, document: OpenApiDocument, auth: Record<string, string>): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const send = async (method: string, template: string, path: string, options: { body?: unknown; headers?: Record<string, string>; invalidRequest?: boolean } = {}) => {
    const response = await fetch(`${prism.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(options.headers ?? auth), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    const header = response.headers.get('sl-violations');
    exchanges.push({ request: `${method} ${path}`, operation: `${method} ${template}`, status: response.status, invalidRequest: options.invalidRequest === true, violations: header ? JSON.parse(header) : [] });
    return { status: response.status, json: () => JSON.parse(text) as Record<string, any> };
  };
  const example = (path: string, method: string) => document.paths[path]![method]!.requestBody!.content['application/json']!.example;
  const collections = Object.keys(document.paths).filter((path) => path.startsWith(`${V1}/`) && !path.includes('{') && document.paths[path]!.get);
  // A batch from the document's own example (its outcome, 200 or 422, is documented either way).
  for (const batch of Object.keys(document.paths).filter((path) => path.startsWith(`${V1}/`) && path.endsWith('/batch'))) await send('POST', batch, batch, { body: example(batch, 'post') });
  for (const collection of collections) {
    const member = `${collection}/{id}`;
    const listed = await send('GET', collection, `${collection}?per_page=2`);
    await send('GET', collection, `${collection}?per_page=500&sort_direction=desc&page=1`);
    await send('GET', collection, `${collection}?page=9999`);
    await send('GET', collection, `${collection}?page=0`, { invalidRequest: true });
    await send('GET', collection, collection, { headers: {}, invalidRequest: true });
    const firstId = listed.json().records?.[0]?.id as number | undefined;
    if (firstId !== undefined && document.paths[member]?.get) await send('GET', member, `${collection}/${firstId}`);
    if (document.paths[member]?.get) await send('GET', member, `${collection}/999999`);
    for (const traversal of Object.keys(document.paths).filter((path) => path.startsWith(`${member}/`))) {
      if (firstId !== undefined) await send('GET', traversal, `${traversal.replace('{id}', String(firstId))}?per_page=3`);
    }
    // When the example cannot be created (a profile for a user who has one: 422), or the document has no create (one actor's), the updates go to a listed record and the delete to a missing one.
    let createdId: number | undefined;
    if (document.paths[collection]!.post) {
      const created = await send('POST', collection, collection, { body: example(collection, 'post') });
      await send('POST', collection, collection, { body: { wrong_key: {} }, invalidRequest: true });
      if (created.status === 201) createdId = created.json().record.id as number;
    }
    const id = createdId ?? firstId;
    if (id === undefined) continue;
    for (const method of ['patch', 'put'] as const) {
      if (document.paths[member]?.[method]) await send(method.toUpperCase(), member, `${collection}/${id}`, { body: example(member, method) });
    }
    if (document.paths[member]?.delete) await send('DELETE', member, `${collection}/${createdId ?? 999999}`);
  }
  for (const health of Object.keys(document.paths).filter((path) => !path.startsWith(`${V1}/`) && document.paths[path]!.get)) await send('GET', health, health, { headers: {} });
  // The upload operation, by its JSON form: a direct upload, which the demo's disk storage answers 400.
  for (const uploads of Object.keys(document.paths).filter((path) => document.paths[path]!.post && !path.startsWith(`${V1}/`))) {
    await send('POST', uploads, uploads, { body: { filename: 'a.png', content_type: 'image/png', byte_size: 10, checksum: 'AAAAAAAAAAAAAAAAAAAAAA==' } });
  }
  return exchanges;
}

/** The HTTP suite through Prism, and what it found: the operations reached, those documented, and each violation (a request broken on purpose may be flagged as such; nothing else may be). */
async function contractRun(prism: PrismProxy, document: OpenApiDocument, auth: Record<string, string>) {
  const exchanges = await contractSuite(prism, document, auth);
  const operations = new Set(exchanges.map((e) => e.operation));
  const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
  const violations = exchanges.flatMap((e) => e.violations.filter((v) => !(e.invalidRequest && v.location[0] === 'request')).map((v) => `${e.request} → ${e.status}: ${v.location.join('.')} ${v.message}`));
  return { exchanges, operations, documented, violations };
}

/** Zero violations, every documented operation reached, no 5xx. */
function expectEveryOperationAsDocumented({ exchanges, operations, documented, violations }: Awaited<ReturnType<typeof contractRun>>): void {
  expect(violations).toEqual([]);
  expect(documented.filter((operation) => !operations.has(operation)), 'operations the suite did not reach').toEqual([]);
  expect(exchanges.every((e) => e.status < 500)).toBe(true);
}

/** The lints and the contract run of one edition's document, on each database. */
function thirdPartySuite(edition: 'A' | 'B'): void {
  describeOnEachDatabase(
    `the OpenAPI document as third-party tools read it, Edition ${edition}`,
    (demo: () => DemoApp, kind) => {
      let folder: string;
      let file: string;
      let document: OpenApiDocument;
      beforeAll(async () => {
        folder = await mkdtemp(join(tmpdir(), 'panel-openapi-'));
        file = join(folder, `edition-${edition.toLowerCase()}.json`);
        const served = await demo().app.inject({ url: DOCUMENT });
        document = served.json();
        await writeFile(file, served.body);
      });
      afterAll(async () => {
        if (folder) await rm(folder, { recursive: true, force: true });
      });

      // The document does not depend on the database: linted once, on the first one.
      it.runIf(kind === testDatabaseKinds()[0])('"Redocly CLI lint (recommended ruleset) and Spectral (spectral:oas, and the OWASP ruleset with each rule it switches off giving its reason) report zero errors"', async () => {
        const [redocly, spectral] = await Promise.all([redoclyLint(file), spectralLint(file)]);
        console.info(`Edition ${edition}: Redocly ${redocly.errors} errors, ${redocly.warnings} warnings; Spectral ${spectral.errors} errors, ${spectral.warnings} warnings`);
        expect(redocly.problems.filter((p) => p.startsWith('error'))).toEqual([]);
        expect(redocly.errors).toBe(0);
        expect(spectral.problems.filter((p) => p.startsWith('error'))).toEqual([]);
        expect(spectral.errors).toBe(0);
      }, 120_000);

      it('"an independent contract tester (Prism\'s validation proxy in front of the demo during an HTTP suite) reports zero violations"', async () => {
        const address = await demo().app.listen({ port: 0, host: '127.0.0.1' });
        const prism = await startPrismProxy(file, address);
        try {
          const auth = edition === 'B' ? { authorization: `Bearer ${demo().tokenSecrets!.get('all')}` } : { ...ADMIN };
          const { exchanges, operations, documented, violations } = await contractRun(prism, document, auth);
          const flaggedRequests = exchanges.filter((e) => e.invalidRequest && e.violations.some((v) => v.location[0] === 'request')).length;
          console.info(`Edition ${edition} [${kind}] through Prism: ${operations.size} of ${documented.length} operations, ${exchanges.length} exchanges checked (request and response), ${violations.length} violations; ${flaggedRequests} of ${exchanges.filter((e) => e.invalidRequest).length} deliberately invalid requests flagged as such`);
          expectEveryOperationAsDocumented({ exchanges, operations, documented, violations });
        } finally {
          await prism.close();
        }
      }, 180_000);

      // Issue 42, item 14: "a document per actor ... so a token's generated client is exact". The
      // reader's key (Edition A) and a token granted blog_posts' index, show, create and update
      // (Edition B) read their own documents; the same HTTP suite, through Prism in front of the
      // demo with that document, finds every operation it lists answering as it says.
      it.runIf(kind === testDatabaseKinds()[0])('"a document per actor": the credential\'s own document lints clean, and every operation it lists answers as it says through Prism', async () => {
        const auth = edition === 'B' ? { authorization: `Bearer ${demo().tokenSecrets!.get('writer')}` } : { ...READER };
        const served = await demo().app.inject({ url: DOCUMENT, headers: auth });
        expect(served.headers['cache-control']).toBe('private, no-cache');
        const own = join(folder, `edition-${edition.toLowerCase()}-actor.json`);
        await writeFile(own, served.body);
        const [redocly, spectral] = await Promise.all([redoclyLint(own), spectralLint(own)]);
        expect(redocly.problems.filter((p) => p.startsWith('error'))).toEqual([]);
        expect(spectral.problems.filter((p) => p.startsWith('error'))).toEqual([]);
        const address = demo().app.server.listening ? `http://127.0.0.1:${(demo().app.server.address() as { port: number }).port}` : await demo().app.listen({ port: 0, host: '127.0.0.1' });
        const prism = await startPrismProxy(own, address);
        try {
          const run = await contractRun(prism, served.json() as OpenApiDocument, auth);
          console.info(`Edition ${edition} [${kind}], one actor's document through Prism: ${run.operations.size} of ${run.documented.length} operations, ${run.exchanges.length} exchanges, ${run.violations.length} violations`);
          expectEveryOperationAsDocumented(run);
        } finally {
          await prism.close();
        }
      }, 180_000);
    },
    { edition },
  );
}

thirdPartySuite('A');
thirdPartySuite('B');
