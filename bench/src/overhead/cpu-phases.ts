/**
 * Where one request's CPU goes, by phase: a sampling CPU profile of the serving code (the V8
 * profiler through `node:inspector`, in this process, 50 µs interval) taken while `inject`
 * sends requests ten at a time, each sample given to the phase of the innermost frame of its
 * stack that belongs to one (by file and function: see `PHASES`), the phases' shares of the
 * samples applied to the process's CPU time over the run (`process.cpuUsage()`). Why a profile and not
 * timestamps: with ten requests in flight a request's phases interleave with the others', and
 * timestamps in hooks measure waiting as well as work, while a sample is CPU spent in a known
 * function. What the profile cannot split finer stays in `other JS` (closures Fastify and the
 * controller run between the named parts); `runtime` is V8's and libuv's own native time
 * (`(program)`) and `GC` the collector's; `harness` is `inject` and this loop, not the server.
 */
import { Session } from 'node:inspector/promises';
import type { FastifyInstance } from 'fastify';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A phase and how a frame is recognised as its own: by its file (a part of its URL) or its function's name. */
interface PhaseRule {
  readonly phase: string;
  readonly url?: RegExp;
  readonly fn?: RegExp;
}

/** The phases of issue 29, matched from the innermost frame outwards; the first frame that matches a rule names the sample's phase. */
const PHASES: readonly PhaseRule[] = [
  { phase: 'harness', url: /light-my-request|overhead\/cpu-/ },
  { phase: 'authentication', fn: /^setupAuthentication$|^apiKeyOf$|^keyDigest$|^authenticate$/ },
  { phase: 'current user', fn: /^currentUser$/ },
  { phase: 'policy', url: /core\/src\/authorization\/|app\/panel\/policies\// },
  { phase: 'statement', url: /\/kysely\/|\/pg\/|\/pg-pool\/|\/pg-protocol\/|\/pg-types\/|postgres-array|core\/src\/database\/|core\/src\/records\// },
  { phase: 'serialization', url: /fast-json-stringify|api\/src\/serialization\/|core\/src\/fields\//, fn: /^serialize|^asJson$|^stringify$/ },
  { phase: 'reply', url: /fastify\/lib\/reply|fastify\/lib\/error|http-semantics\/(entity-tag|conditional-get)/ },
  { phase: 'hooks', url: /fastify\/lib\/hooks|http-semantics\/|api\/src\/mount\/|@fastify\/cookie|request-hygiene/ },
  { phase: 'routing', url: /find-my-way|fastify\/lib\/(route|handle-request|context)|api\/src\/routing\/|api\/src\/params\// },
  { phase: 'controller', url: /api\/src\/controller\/|app\/controllers\/|app\/scalar\// },
  { phase: 'handler (hand-written)', url: /src\/baseline\/|src\/scalar\/scalar-routes|src\/limit\// },
];

/** The phases in the order the table prints them. */
export const PHASE_ORDER = ['routing', 'hooks', 'authentication', 'current user', 'policy', 'controller', 'handler (hand-written)', 'statement', 'serialization', 'reply', 'other JS', 'GC', 'runtime', 'harness'] as const;

function phaseOf(stack: readonly ProfileNode[]): string {
  const top = stack[0]!.callFrame.functionName;
  if (top === '(garbage collector)') return 'GC';
  if (top === '(program)') return 'runtime';
  for (const node of stack) {
    const { url, functionName } = node.callFrame;
    for (const rule of PHASES) {
      if ((rule.url && url && rule.url.test(url)) || rule.fn?.test(functionName)) return rule.phase;
    }
  }
  return 'other JS';
}

/**
 * Microseconds of CPU per request by phase, from a profile of `count` requests and the process's
 * CPU time over it: each phase's share of the samples (idle ones left out) times the CPU time.
 * Samples are counted, not weighed by their time deltas: on a loaded machine the process waits
 * for a core between samples, and a delta would charge that wait to whatever ran next.
 */
function attribute(profile: Profile, count: number, cpuMicros: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const phaseById = new Map<number, string>();
  const phases = new Map<string, number>();
  for (const [i, id] of profile.samples.entries()) {
    let phase = phaseById.get(id);
    if (phase === undefined) {
      const stack: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
      if (stack[0]!.callFrame.functionName === '(idle)') phase = 'idle';
      else phase = phaseOf(stack);
      phaseById.set(id, phase);
    }
    phases.set(phase, (phases.get(phase) ?? 0) + (profile.timeDeltas[i] === undefined ? 0 : 1));
  }
  phases.delete('idle');
  const samples = [...phases.values()].reduce((sum, n) => sum + n, 0);
  for (const [phase, n] of phases) phases.set(phase, (cpuMicros * n) / samples / count);
  return phases;
}

/** Sends `count` requests, ten in flight, under the sampling profiler; the CPU per request by phase (µs). */
export async function cpuByPhase(app: FastifyInstance, url: (n: number) => string, count: number, authorization: string): Promise<Map<string, number>> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    await session.post('Profiler.start');
    const before = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < count) {
          const response = await app.inject({ url: url(next++), headers: { authorization } });
          if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
        }
      }),
    );
    const used = process.cpuUsage(before);
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    return attribute(profile, count, used.user + used.system);
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}

/** The breakdown as a table: a row per phase, a column per server, and the total without the harness. */
export function formatPhases(columns: readonly { readonly name: string; readonly phases: Map<string, number> }[]): string {
  const widths = [24, ...columns.map((column) => Math.max(12, column.name.length))];
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const rows = PHASE_ORDER.map((phase) => line([phase, ...columns.map((column) => (column.phases.get(phase) ?? 0).toFixed(0))]));
  const total = (phases: Map<string, number>) => [...phases].filter(([phase]) => phase !== 'harness').reduce((sum, [, micros]) => sum + micros, 0);
  return [line(['phase (µs per request)', ...columns.map((column) => column.name)]), ...rows, line(['total without harness', ...columns.map((column) => total(column.phases).toFixed(0))])].join('\n');
}
