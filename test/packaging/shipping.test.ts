// The files that ship the sandbox (Dockerfile, compose.yaml, the README and its docs pages) name only variables it reads:
// a misspelt SANDBOX_* in an image or a compose file is silently ignored, so it is checked here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/program';
import { DOCS } from '../readme/readme';

const ROOT = join(__dirname, '..', '..');
/** Read by scripts/check-image.cjs and by the image's test suites, not by the sandbox. */
const OTHERS = new Set(['SANDBOX_CONTAINER_TOOLS', 'SANDBOX_IMAGE']);

describe('shipping files', () => {
  const start = buildProgram().commands.find((c) => c.name() === 'start')!;
  const read = new Set(start.options.map((o) => o.envVar).filter((v): v is string => v !== undefined));

  it.each(['Dockerfile', 'compose.yaml'])('%s names only SANDBOX_* variables that start reads', (file) => {
    const named = new Set(readFileSync(join(ROOT, file), 'utf8').match(/SANDBOX_[A-Z][A-Z_]*/g) ?? []);
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((v) => !read.has(v) && !OTHERS.has(v))).toEqual([]);
  });

  it('the README and its docs pages name only SANDBOX_* variables that start reads', () => {
    const named = Object.entries(DOCS).flatMap(([file, text]) => (text.match(/SANDBOX_[A-Z][A-Z_]*/g) ?? []).map((v) => ({ file, v })));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter(({ v }) => !read.has(v) && !OTHERS.has(v))).toEqual([]);
  });

  it('the variables of the container and the CI examples are among them', () => {
    for (const v of ['SANDBOX_HOST', 'SANDBOX_PORT', 'SANDBOX_DB', 'SANDBOX_PUBLIC_URL', 'SANDBOX_PUBLIC_CARD_URL', 'SANDBOX_CONTROL_TOKEN', 'SANDBOX_CONTROL_FROM', 'SANDBOX_RETAIN']) {
      expect([v, read.has(v)]).toEqual([v, true]);
    }
  });
});
