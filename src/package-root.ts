// Where the package's own files (fixtures, scenarios, package.json) are: found from this module's
// folder, whose depth differs between the sources, dist/ and the single-file bundle.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function find(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scenarios'))) return dir;
    if (dirname(dir) === dir) return join(from, '..');
  }
}

export const PACKAGE_ROOT = find(__dirname);
