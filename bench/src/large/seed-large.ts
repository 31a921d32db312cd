import { ensureBenchSeed } from '../seed/bench-seed.js';
import { LARGE_DATASET, LARGE_SCHEMA } from './large-dataset.js';

/** Seeds (or finds complete) the 10-million-row schema; `npm run bench:large -- --seed-only` runs only this. */
export async function seedLarge(url: string): Promise<void> {
  console.log(`Seeding schema ${LARGE_SCHEMA} with ${LARGE_DATASET.posts.toLocaleString('en')} posts (reused when its marker says complete)…`);
  const outcome = await ensureBenchSeed(url, LARGE_SCHEMA, LARGE_DATASET);
  console.log(outcome.reused ? `Reused the complete seed (${outcome.seconds.toFixed(1)} s).` : `Seeded in ${outcome.seconds.toFixed(0)} s.`);
}
