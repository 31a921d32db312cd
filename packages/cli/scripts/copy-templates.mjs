// Copies the monorepo's handlebars templates (templates/) into the package, so that the published
// CLI ships them: packages/cli/templates is what `files` publishes and what the built CLI reads.
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../../templates/', import.meta.url));
const target = fileURLToPath(new URL('../templates/', import.meta.url));

rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true, filter: (path) => !path.endsWith('.md') });
