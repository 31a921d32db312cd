// Removes the current package's dist/ before a build, so that a renamed or deleted source
// leaves no stale module in the published files. Run from a package folder: `node ../../scripts/clean-dist.mjs`.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
