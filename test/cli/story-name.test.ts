// `split-sandbox story <id>` without --out writes a plain file name in the current folder, whatever
// Name the server answers.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/program';
import { storyFileName } from '../../src/cli/story-file';

describe('the story file name', () => {
  it('is the Name when it is a plain file name, story-<id> otherwise', () => {
    expect(storyFileName('story-42', '42')).toBe('story-42.json');
    expect(storyFileName('my.case_1', '42')).toBe('my.case_1.json');
    for (const name of ['../x', '/etc/x', 'a/b', 'a\\b', '.hidden', '..', '', 'x'.repeat(65), 'é', null, 7]) {
      expect(storyFileName(name, '42')).toBe('story-42.json');
    }
  });

  describe('written by the command', () => {
    let tmp: string;
    let server: Server;
    let cwd: string;
    beforeEach(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-story-name-'));
      mkdirSync(join(tmp, 'here'));
      cwd = process.cwd();
      process.chdir(join(tmp, 'here'));
      // A server that answers a Name meant to leave the folder.
      server = createServer((_req, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ Name: '../escaped', Steps: [] }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    });
    afterEach(async () => {
      process.chdir(cwd);
      await new Promise((r) => server.close(r));
      rmSync(tmp, { recursive: true, force: true });
    });

    it('stays in the current folder when the server answers a Name with a path', async () => {
      const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        // Built for its command line, as the CLI's run() builds it: with the story command alone.
        const argv = ['node', 'split-sandbox', 'story', '42', '--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`];
        await buildProgram(argv).parseAsync(argv);
      } finally {
        out.mockRestore();
      }
      expect(existsSync(join(tmp, 'escaped.json'))).toBe(false);
      expect(readdirSync(join(tmp, 'here'))).toEqual(['story-42.json']);
    });
  });
});
