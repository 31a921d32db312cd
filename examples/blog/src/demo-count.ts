import type { CountStrategyInput } from '@panel/core';

/**
 * The demo's count strategy: the exact `count(*)`, whose statement skips its scan when no
 * transaction has committed since the same count was made, at most a second ago
 * (docs/scaling.md#count-strategies).
 */
export const DEMO_COUNT: CountStrategyInput = { strategy: 'exact', reuseUnchangedMs: 1_000 };
