// Issue 42, L6: "every request spends the rate limit of the credential it names whatever stage
// refuses it (malformed JSON, 413, 415, 401/403 …); requests without credentials spend the
// client address's budget". Refusals by Fastify's body parsing come before the controller.
import { expect, it } from 'vitest';
import { ADMIN, describeOnEachDatabase } from './demo-app-support.js';

const V1 = '/api/resources/v1';
/** Three refusals before the controller: a malformed JSON body, an unsupported media type, a body over the limit (1 MiB). */
const REFUSALS = {
  'malformed JSON': { headers: { 'content-type': 'application/json' }, payload: '{"comment": ', status: 400 },
  '415': { headers: { 'content-type': 'text/plain' }, payload: 'hello', status: 415 },
  '413': { headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ comment: { body: 'x'.repeat(2 * 1024 * 1024) } }), status: 413 },
} as const;

describeOnEachDatabase(
  'refused before the controller, still spent (Edition B)',
  (demo) => {
    for (const [name, refusal] of Object.entries(REFUSALS)) {
      it(`"every request spends the rate limit of the credential it names": a token limited to 2 requests sends two ${name} bodies (${refusal.status}), then its third request is 429`, async () => {
        const { token, secret } = await demo().tokens!.create({ name: `limited ${name}`, grants: ['comments:index', 'comments:create'], createdById: 1 });
        await demo().tokens!.setRateLimit(token.id, 2);
        const authorization = `Bearer ${secret}`;
        for (let n = 1; n <= 2; n++) {
          const refused = await demo().app.inject({ method: 'POST', url: `${V1}/comments`, headers: { ...refusal.headers, authorization }, payload: refusal.payload });
          expect(refused.statusCode, `${name} ${n}`).toBe(refusal.status);
        }
        expect((await demo().app.inject({ method: 'POST', url: `${V1}/comments`, headers: { ...refusal.headers, authorization }, payload: refusal.payload })).statusCode).toBe(429);
        expect((await demo().app.inject({ method: 'GET', url: `${V1}/comments`, headers: { authorization } })).statusCode).toBe(429);
      });
    }
  },
  { edition: 'B' },
);

describeOnEachDatabase(
  'refused before the controller, still spent (Edition A)',
  (demo) => {
    it('an API key\'s three malformed JSON bodies spend its budget of 3: the fourth request is 429', async () => {
      for (let n = 1; n <= 3; n++) {
        const refused = await demo().app.inject({ method: 'POST', url: `${V1}/tags`, headers: { ...ADMIN, ...REFUSALS['malformed JSON'].headers, 'x-forwarded-for': '198.51.100.1' }, payload: REFUSALS['malformed JSON'].payload });
        expect(refused.statusCode).toBe(400);
      }
      expect((await demo().app.inject({ method: 'GET', url: `${V1}/tags`, headers: { ...ADMIN, 'x-forwarded-for': '198.51.100.2' } })).statusCode).toBe(429);
    });

    it('"requests without credentials spend the client address\'s budget": three 415 and 413 bodies from one address, then its fourth request is 429; another address is not held', async () => {
      const from = (address: string, refusal: (typeof REFUSALS)[keyof typeof REFUSALS]) =>
        demo().app.inject({ method: 'POST', url: `${V1}/tags`, headers: { ...refusal.headers, 'x-forwarded-for': address }, payload: refusal.payload });
      expect((await from('203.0.113.50', REFUSALS['415'])).statusCode).toBe(415);
      expect((await from('203.0.113.50', REFUSALS['413'])).statusCode).toBe(413);
      expect((await from('203.0.113.50', REFUSALS['415'])).statusCode).toBe(415);
      expect((await from('203.0.113.50', REFUSALS['415'])).statusCode).toBe(429);
      expect((await from('203.0.113.51', REFUSALS['415'])).statusCode).toBe(415);
    });
  },
  { trustProxy: true, api: { rateLimit: { max: 3, windowSeconds: 60 } } },
);
