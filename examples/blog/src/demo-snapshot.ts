import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { panelApiMigrations, panelMigrations, panelRevealMigrations, panelSessionMigrations, type Migration } from '@panel/core';

/** Where the demo keeps its prepared PGlite snapshot (ignored by git, like every `.pglite/` folder). */
export const DEMO_SNAPSHOT_FILE = fileURLToPath(new URL('../.pglite/demo-snapshot.tar', import.meta.url));

/** The folders whose files decide the seeded data: the migrations and seeds, and the resources (their file fields hold the seeded files). */
const INPUTS = ['../db', '../app/panel/resources'].map((folder) => fileURLToPath(new URL(folder, import.meta.url)));

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

const migrationSource = (migrations: Readonly<Record<string, Migration>>) => Object.entries(migrations).map(([name, m]) => `${name}:${m.up.toString()}:${m.down?.toString() ?? ''}`);

/**
 * The demo snapshot's key: a digest of the demo's migration, seed and resource files and of
 * the framework's own migrations, so that a change to any of them makes the snapshot again.
 */
export function demoSnapshotKey(): string {
  const hash = createHash('sha256');
  for (const folder of INPUTS) {
    for (const file of filesUnder(folder)) hash.update(`${file.slice(folder.length)}\0`).update(readFileSync(file)).update('\0');
  }
  for (const source of [...migrationSource(panelMigrations), ...migrationSource(panelSessionMigrations), ...migrationSource(panelApiMigrations), ...migrationSource(panelRevealMigrations)]) hash.update(source).update('\0');
  return hash.digest('hex');
}
