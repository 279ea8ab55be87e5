// A worker keeps each module's transformed code between test files (test/setup/runtime.cjs): a module
// changed on disk since is read afresh, not served from what was kept.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('the modules a worker keeps between test files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-kept-'));
  const file = join(dir, 'answer.ts');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const load = (): unknown => {
    jest.resetModules();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require(file) as { answer: unknown }).answer;
  };

  it('give the same module again while it is unchanged', () => {
    writeFileSync(file, 'export const answer: number = 41;\n');
    expect(load()).toBe(41);
    expect(load()).toBe(41);
  });

  it('read a module again once it changed: a new text of another length', () => {
    writeFileSync(file, 'export const answer: string = "forty-two";\n');
    expect(load()).toBe('forty-two');
  });

  it('read a module again once it changed: the same length, another modification time', () => {
    writeFileSync(file, 'export const answer: string = "forty-one";\n');
    utimesSync(file, new Date(Date.UTC(2030, 0, 1)), new Date(Date.UTC(2030, 0, 1)));
    expect(load()).toBe('forty-one');
  });
});
