// The README's and its pages' links lead somewhere: every #anchor is a heading of the page it names,
// every relative path a file of the project; and the README is a newcomer's page: its two commands
// first, the guide next, a map of every page last, all within 500 lines.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DOCS, LINKS, README, ROOT, anchorsOf } from './readme';

describe("the README's and docs pages' links", () => {
  it('every #anchor names a heading of the page it points at', () => {
    expect(LINKS.filter((l) => l.anchor !== undefined).length).toBeGreaterThan(5);
    const broken = LINKS.filter((l) => l.anchor !== undefined && !(DOCS[l.path] !== undefined && anchorsOf(DOCS[l.path]!).has(l.anchor)));
    expect(broken.map((l) => `${l.file}: ${l.target}`)).toEqual([]);
  });

  it('every relative link is a file of the project, inside it', () => {
    const paths = new Set(LINKS.map((l) => l.path));
    expect([...paths]).toEqual(expect.arrayContaining(['bench/findings.md', 'bench/results.md', 'docs/payer-page.png', 'docs/api.md', 'examples/ci/github-actions.yml']));
    const broken = LINKS.filter((l) => l.path.startsWith('..') || !existsSync(join(ROOT, l.path)));
    expect(broken.map((l) => `${l.file}: ${l.target}`)).toEqual([]);
  });

  it('a page links into the project with paths relative to itself (../ for the project, none for a sibling)', () => {
    const fromPages = LINKS.filter((l) => l.file.startsWith('docs/') && !l.target.startsWith('#'));
    expect(fromPages.length).toBeGreaterThan(5);
    expect(fromPages.filter((l) => l.target.startsWith('docs/')).map((l) => `${l.file}: ${l.target}`)).toEqual([]);
  });
});

describe('the README, a newcomer\'s page', () => {
  const lines = README.split('\n');
  const at = (h: string) => lines.indexOf(h);

  it('is under 500 lines', () => {
    expect(lines.length).toBeLessThan(500);
  });

  it('opens with what it is and its two commands: the tests, and the sandbox on its SQLite file', () => {
    const first = README.slice(0, README.indexOf('## Getting started'));
    expect(first).toMatch(/^# split-sandbox\n\nA stateful, high-fidelity sandbox/);
    const commands = /```bash\n([\s\S]*?)\n```/.exec(first)![1]!.split('\n').map((l) => l.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npm test', 'npx split-sandbox start']);
    expect(lines.findIndex((l) => l === 'npm ci && npm test' || l.startsWith('npm ci && npm test '))).toBeLessThan(15);
  });

  it('then the guide: the three ways to start, a payment and its notification, a test', () => {
    expect(at('## Getting started')).toBeGreaterThan(0);
    expect(at('### Start it')).toBeGreaterThan(at('## Getting started'));
    const start = README.slice(README.indexOf('### Start it'), README.indexOf('### A payment and its notification'));
    for (const way of ['npx split-sandbox start', 'docker run', 'startSandbox()', 'Testcontainers']) expect([way, start.includes(way)]).toEqual([way, true]);
    expect(at('### A payment and its notification')).toBeGreaterThan(at('### Start it'));
    expect(at('### A test')).toBeGreaterThan(at('### A payment and its notification'));
  });

  it('ends with "Where to read more", which links every docs page', () => {
    const more = at('## Where to read more');
    expect(more).toBeGreaterThan(at('### A test'));
    expect(lines.slice(more + 1).some((l) => l.startsWith('## '))).toBe(false);
    const map = lines.slice(more + 1).join('\n');
    const linked = new Set([...map.matchAll(/\]\((docs\/[^)#\s]+)\)/g)].map((m) => m[1]!));
    const pages = Object.keys(DOCS).filter((f) => f.startsWith('docs/'));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
    expect(README).toContain('[CI recipes](docs/ci.md)');
  });
});
