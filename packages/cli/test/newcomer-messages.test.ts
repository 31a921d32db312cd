// What a newcomer hit (the wrong folder, a mistyped name, a missing base controller, a broken
// association that `--check` let through, the CLI's version): each message, word for word.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from './support/list-files.js';
import { runPanelApi } from './support/run-panel-api.js';
import { FIXTURES_DIR, IN_REPO_TMP_PARENT, tempApps } from './support/temp-apps.js';

const BIN = fileURLToPath(new URL('../bin/panel-api.js', import.meta.url));
const V1 = 'app/controllers/panel/api/resources/v1';
const V3 = 'app/controllers/panel/api/resources/v3';

const apps = tempApps();
// Inside the repository, so that `routes` can import the resources and controllers.
const inRepo = tempApps(IN_REPO_TMP_PARENT);
afterAll(async () => {
  await apps.removeAll();
  await inRepo.removeAll();
});

function bin(args: readonly string[], cwd: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, code] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), code);
  }
}

const resource = (className: string, fields: string) =>
  `import { Resource, field } from '@panel/core';\n\nexport default class ${className} extends Resource {\n  override fields() {\n    return [\n${fields}\n    ];\n  }\n}\n`;

/** The library app: Library, Book, Member; Book's belongsTo is mistyped. */
const LIBRARY: Record<string, string> = {
  'app/panel/resources/library.ts': resource('LibraryResource', "      field.id(),\n      field.text('name'),\n      field.hasMany('books'),"),
  'app/panel/resources/member.ts': resource('MemberResource', "      field.id(),\n      field.text('name'),\n      field.hasMany('loans', { resource: 'Book', foreignKey: 'member_id' }),"),
  'app/panel/resources/book.ts': resource('BookResource', "      field.id(),\n      field.text('title'),\n      field.belongsTo('libary'),\n      field.text('title'),\n      ...extraFields(),"),
};

describe('panel-api run from the wrong folder (issue: "from app/src, generate says No resources found… Add a class")', () => {
  const wrongFolder = (root: string, cd: string, appRoot: string) =>
    `No app/panel/resources folder in ${root}: panel-api looks for app/panel/resources under the app root (the current directory, or the folder --root names). Fix: cd ${cd} (the app root ${appRoot} holds it), or pass --root ${appRoot}.`;

  it.each([['generate'], ['controllers'], ['controller', 'BlogPost'], ['generate', '--check'], ['routes']])(
    '"%s" pointed at app/src says the folder does not exist, where it looks, and the cd or --root that fixes it; it writes nothing',
    async (...command) => {
      const app = await apps.copy('blog-resources');
      const root = join(app, 'app', 'src');
      await mkdir(root);
      const run = await runPanelApi([...command, '--root', root]);
      expect(run.err).toEqual([wrongFolder(root, relative(process.cwd(), app), app)]);
      expect(run.out).toEqual([]);
      expect(run.exitCode).toBe(1);
      expect(await listFiles(app, 'app/controllers')).toEqual([]);
    },
  );

  it('spawned in app/src without --root, says cd ../..', async () => {
    const app = await apps.copy('blog-resources');
    const root = join(app, 'app', 'src');
    await mkdir(root);
    const run = await bin(['generate'], root);
    expect(run.stderr).toBe(`${wrongFolder(root, '../..', app)}\n`);
    expect(run.exitCode).toBe(1);
  });

  it('spawned in the folder that holds the app, names the app folder below it', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'panel-api-holder-'));
    try {
      await cp(join(FIXTURES_DIR, 'blog-resources'), join(parent, 'shop'), { recursive: true });
      const run = await bin(['generate'], parent);
      expect(run.stderr).toBe(`${wrongFolder(parent, 'shop', join(parent, 'shop'))}\n`);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('a --root with no app near it says so and suggests cd or --root', async () => {
    const lonely = await mkdtemp(join(tmpdir(), 'panel-api-no-app-'));
    try {
      const run = await runPanelApi(['routes', '--root', lonely]);
      expect(run.err).toEqual([
        `No app/panel/resources folder in ${lonely}: panel-api looks for app/panel/resources under the app root (the current directory, or the folder --root names). Fix: cd to the folder that holds app/panel/resources, or pass --root <app root>.`,
      ]);
      expect(run.exitCode).toBe(1);
    } finally {
      await rm(lonely, { recursive: true, force: true });
    }
  });

  it('an existing but empty resources folder keeps the "add a class" advice', async () => {
    const root = await apps.empty();
    const run = await runPanelApi(['generate', '--root', root]);
    expect(run.err).toEqual([`No resources found in ${join(root, 'app', 'panel', 'resources')}. Add a class extending Resource there, then run this again.`]);
  });
});

describe('panel-api controller <name> with a near miss (issue: "controller book could suggest Book")', () => {
  it.each([
    ['blogpost', 'BlogPost'],
    ['blog_post', 'BlogPost'],
    ['users', 'User'],
    ['user', 'User'],
  ])('"controller %s" suggests %s', async (typed, meant) => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['controller', typed, '--root', root]);
    expect(run.err).toEqual([`No resource named "${typed}". Did you mean "${meant}"? Known resources: BlogPost, ProductCategory, User.`]);
    expect(run.exitCode).toBe(1);
    expect(await listFiles(root, 'app/controllers')).toEqual([]);
  });
});

describe('panel-api generate --check on an app that cannot boot (issue: "✓ Up to date" on field.belongsTo(\'libary\'))', () => {
  it('fails naming the file and line of an unknown association target and of a field declared twice, and judges no spread it cannot read', async () => {
    const root = await apps.empty();
    await write(root, LIBRARY);
    await runPanelApi(['generate', '--root', root]);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([
      `app/panel/resources/book.ts:8: Resource Book: the field "libary" points at the resource "Libary", which does not exist (known resources: Book, Library, Member). Fix: correct the field name, or pass { resource: '<ResourceName>' } to field.belongsTo('libary', …).`,
      'app/panel/resources/book.ts:9: Resource Book: the field "title" is declared twice. Fix: remove one of them.',
      '2 problems. Fix: correct each file at the line shown.',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('passes once the association names a resource that exists (an explicit resource option counts)', async () => {
    const root = await apps.empty();
    await write(root, { ...LIBRARY, 'app/panel/resources/book.ts': resource('BookResource', "      field.id(),\n      field.belongsTo('home', { resource: 'Library' }),\n      field.belongsTo('library'),") });
    await runPanelApi(['generate', '--root', root]);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([]);
    expect(run.out).toEqual(['✓ Up to date: 3 resources, 3 controllers in v1.']);
    expect(run.exitCode).toBe(0);
  });

  it('fails naming the missing base controller of a version with the generate --version command (issue: "after controller Book --version v3")', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--root', root]);
    await runPanelApi(['controller', 'User', '--version', 'v3', '--root', root]);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([
      `✗ Missing BlogPostsController  ${V3}/blog-posts-controller.ts (resource BlogPost, app/panel/resources/blog-post.ts:4)`,
      `✗ Missing ProductCategoriesController  ${V3}/product-categories-controller.ts (resource ProductCategory, app/panel/resources/product-category.ts:4)`,
      `✗ Missing BaseResourcesController  ${V3}/base-resources-controller.ts`,
      '3 problems. Fix: run `panel-api generate --version v3` to create the missing files.',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('names any other relative import of a controller that points at nothing', async () => {
    const root = await apps.copy('blog-resources');
    await runPanelApi(['generate', '--root', root]);
    const file = join(root, V1, 'users-controller.ts');
    await writeFile(file, `import { audit } from '../../../../../lib/audit.js';\n${await readFile(file, 'utf8')}`);
    const run = await runPanelApi(['generate', '--check', '--root', root]);
    expect(run.err).toEqual([
      `${V1}/users-controller.ts:1: imports ../../../../../lib/audit.js, but app/lib/audit.ts (or .js) does not exist. Fix: restore the file, or correct the import.`,
      '1 problem. Fix: correct each file at the line shown.',
    ]);
  });
});

describe('panel-api routes with a missing base controller (issue: "a raw ERR_MODULE_NOT_FOUND")', () => {
  it('names the controller, the missing base and the command that creates it', async () => {
    const root = await inRepo.copy('blog-resources');
    await runPanelApi(['generate', '--root', root]);
    await runPanelApi(['controller', 'User', '--version', 'v3', '--root', root]);
    const run = await runPanelApi(['routes', '--root', root]);
    expect(run.err).toEqual([
      `Cannot list the routes: ${V3}/users-controller.ts: its base controller ${V3}/base-resources-controller.ts (or .js) does not exist. Fix: run \`panel-api generate --version v3\` to create the BaseResourcesController, or restore the file.`,
    ]);
    expect(run.exitCode).toBe(1);
  });
});

describe('the version of panel-api (issue: "panel-api --version currently errors")', () => {
  const expected = async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    return `@panel/api-cli ${version} (Node ${process.versions.node})`;
  };

  it.each([['-V'], ['--version'], ['version']])('"panel-api %s" prints the CLI\'s version and Node\'s, and exits 0', async (flag) => {
    const run = await runPanelApi([flag]);
    expect(run.out).toEqual([await expected()]);
    expect(run.err).toEqual([]);
    expect(run.exitCode).toBe(0);
  });

  it('spawned, "panel-api -V" prints the same line', async () => {
    const run = await bin(['-V'], dirname(BIN));
    expect(run.stdout).toBe(`${await expected()}\n`);
    expect(run.exitCode).toBe(0);
  });

  it('keeps --version after a command as the API version: generate --version v2 writes v2', async () => {
    const root = await apps.copy('blog-resources');
    const run = await runPanelApi(['generate', '--version', 'v2', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.out.at(-1)).toBe('✓ Created BaseResourcesController  app/controllers/panel/api/resources/v2/base-resources-controller.ts');
  });
});
