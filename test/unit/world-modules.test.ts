// What a test's world loads when its file imports it: the services and the API's routes, not the rest
// of a start (listeners, scheduler, notification worker), nor the dashboard, the control API, the
// served document or the marketplaces' snapshots (their copying code), which are loaded when first used.
import { buildSync } from 'esbuild';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The modules of src/ that `entry` loads with it: its imports, followed, but not what it requires later. */
function loadedWith(entry: string): string[] {
  const { metafile } = buildSync({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    packages: 'external',
    // The precompiled validators and the package's manifest are found at run time.
    external: ['./generated/*', '*/package.json'],
    outfile: join(ROOT, 'world-modules.js'),
    logLevel: 'silent',
  });
  const inputs = metafile!.inputs;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of inputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(relative(ROOT, join(ROOT, entry)));
  return [...seen].filter((f) => f.startsWith('src/')).sort();
}

describe('the modules a test world loads', () => {
  const loaded = loadedWith('test/helpers/world.ts');

  it('hold the services, the store and the API’s routes', () => {
    expect(loaded).toEqual(expect.arrayContaining(['src/main/services.ts', 'src/store/store.ts', 'src/http/app.ts', 'src/http/api/payments.routes.ts']));
  });

  it('leave out the rest of a start, the dashboard, the control API, the served document and the snapshots', () => {
    const later = ['src/main.ts', 'src/scheduler/scheduler.ts', 'src/http/server.ts', 'src/notifications/worker.ts', 'src/http/dashboard/dashboard.routes.ts', 'src/http/control/control.routes.ts', 'src/openapi/document.ts', 'src/marketplaces/site-snapshots.ts', 'src/store/site-copies.ts', 'src/store/copies.ts'];
    expect(loaded.filter((f) => later.includes(f))).toEqual([]);
  });
});

describe('the modules of the files that need no world', () => {
  // The seeded marketplace, the start time and a create body come from test/helpers/constants.ts: a file
  // that needs only them (the CLI tests, whose sandboxes are processes) loads no src/ module of its own.
  it.each(['test/helpers/constants.ts', 'test/cli/cli.test.ts', 'test/cli/reproduce.test.ts', 'test/cli/request-journal.test.ts', 'test/cli/strict-fields.test.ts'])('%s loads none of src/', (file) => {
    expect(loadedWith(file)).toEqual([]);
  });
});
