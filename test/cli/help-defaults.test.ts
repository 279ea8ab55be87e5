// The defaults `--help` shows are the ones the tables of docs/configuration.md (options) and docs/cli.md (commands) write, option by option, and --quiet
// does what both say: no log lines, the three address lines still printed.
import request from 'supertest';
import { doc } from '../readme/readme';

const OPTIONS = doc('docs/configuration.md');
const COMMANDS = doc('docs/cli.md');
import { type Run, run, sessionForTests, waitForOutput } from './process';

/** `--name` → the default its help entry shows (undefined: none), from a command's --help. */
function helpDefaults(help: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const entry of help.split(/\n {2}(?=--)/).slice(1)) {
    const text = entry.replace(/\s+/g, ' ');
    const name = /^--([a-z-]+)/.exec(text)![1]!;
    out.set(name, /\(default: (.*?)(?:, env: [A-Z_]+)?\)/.exec(text)?.[1]);
  }
  return out;
}

const plain = (s: string) => s.replace(/[`"]/g, '').trim();

describe('help and the docs agree (built code)', () => {
  const running: Run[] = [];
  // The help texts come from one Node process (the CLI session); start --help also from a real one, compared.
  const session = sessionForTests();
  async function helpOf(command: string): Promise<string> {
    const r = await session.run([command, '--help']);
    expect(r.code).toBe(0);
    return r.out;
  }
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGTERM');
      await r.exited;
    }
  });

  it("start --help shows every default of docs/configuration.md's options table, as the table writes it", async () => {
    const text = await helpOf('start');
    const real = run(['start', '--help']);
    const { code } = await real.exited;
    expect({ code, out: real.stdout(), err: real.stderr() }).toEqual({ code: 0, out: text, err: '' });
    const help = helpDefaults(text);
    const table = OPTIONS.slice(OPTIONS.indexOf('`npx split-sandbox start` options'), OPTIONS.indexOf('Byte-identical runs on free ports'));
    const rows = table.split('\n').filter((l) => l.startsWith('| `--'));
    expect(rows.length).toBeGreaterThan(20);
    const compared: string[] = [];
    for (const row of rows) {
      const [, names, defaults] = row.split(/(?<!\\)\|/);
      const options = [...names!.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
      const each = defaults!.trim() === '' ? options.map(() => undefined) : defaults!.split(' / ').map(plain);
      options.forEach((o, i) => {
        expect([o, help.has(o)]).toEqual([o, true]);
        // An option the table gives no default has none in the help either, and the other way round.
        expect([o, help.get(o) === undefined ? undefined : plain(help.get(o)!)]).toEqual([o, each.length === 1 ? each[0] : each[i]]);
        compared.push(o);
      });
    }
    expect(compared).toEqual(expect.arrayContaining(['notify-timeout', 'notify-backoff', 'port', 'card-port', 'fixtures', 'control-from', 'start-time']));
    // Every option of the help is in the table.
    expect([...help.keys()].filter((o) => o !== 'help' && !compared.includes(o))).toEqual([]);
  });

  it.each([
    ['wait', '30s'],
    ['trigger', '60s'],
  ])("%s --timeout's default is docs/cli.md's", async (command, shown) => {
    expect(helpDefaults(await helpOf(command)).get('timeout')).toBe(shown);
    const row = COMMANDS.split('\n').find((l) => l.startsWith(`| \`split-sandbox ${command} `))!;
    expect(row).toContain(`[--timeout ${shown}]`);
  });

  it('--quiet: the three address lines docs/configuration.md names, and no log line, even for requests', async () => {
    const r = run(['start', '--port', '0', '--card-port', '0', '--db', ':memory:', '--quiet']);
    running.push(r);
    const m = await waitForOutput(r, /Listening on (\S+) \(API\)/);
    expect((await request(m[1]!).get('/_sandbox/health')).status).toBe(200);
    expect((await request(m[1]!).get('/v1/payments')).status).toBe(401);
    expect(r.stdout()).toMatch(/^API {2}\S+\nCard \S+\nListening on \S+ \(API\) and \S+ \(card API\)\n$/);
    expect(r.stderr()).toBe('');
    expect(OPTIONS).toContain('| `--quiet` | | no log lines (the `API`, `Card` and `Listening on` lines still print: scripts read them) |');
    expect((await helpOf('start')).replace(/\s+/g, ' ')).toContain('--quiet no log lines (the API, Card and Listening on lines still print: scripts read them)');
  });
});
