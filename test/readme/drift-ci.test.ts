// docs/drift.md's GitHub Actions job is valid YAML, and each split-sandbox command line in it is one the
// command line takes: every option known, every value accepted (commander parses it; nothing runs).
import { type Command, CommanderError } from 'commander';
import { parse } from 'yaml';
import { buildProgram } from '../../src/cli/program';
import { block } from './readme';

interface Step {
  name?: string;
  run?: string;
  uses?: string;
}

const JOB = block('docs/drift.md', 'Is the sandbox right for my integration?', 'yaml');

/** A shell script's words, quotes taken off and `\`-newlines joined; `;`, `&`, `&&`, `|` and `#…` end a command. */
function commands(script: string): string[][] {
  const found: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  const end = () => {
    if (word !== null) words.push(word);
    word = null;
    if (words.length > 0) found.push(words);
    words = [];
  };
  const text = script.replace(/\\\n/g, ' ');
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      word = (word ?? '') + text.slice(i + 1, close);
      i = close;
    } else if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '\n' || c === ';' || c === '&' || c === '|') {
      end();
    } else if (c === '#' && word === null) {
      i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i) - 1;
    } else word = (word ?? '') + c;
  }
  end();
  return found;
}

/** A variable as the job's secrets would fill it: a URL for an address, a token otherwise. */
const filled = (word: string) => word.replace(/\$\{?([A-Z_]+)\}?/g, (_m, name: string) => (/URL$/.test(name) ? 'https://paytest.example/api' : 'secret-token'));

/** Parses a command line with the CLI's own program, every action replaced: what each command received. */
function parsed(args: string[]): { command: string; options: Record<string, unknown> } {
  const program = buildProgram();
  let seen: { command: string; options: Record<string, unknown> } | null = null;
  const quiet = (c: Command) => {
    c.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
    if (c.commands.length === 0 || c.name() === 'drift') {
      c.action(function (this: Command) {
        seen = { command: this.name() === 'report' ? 'drift report' : this.name(), options: this.opts() };
      });
    }
    c.commands.forEach(quiet);
  };
  quiet(program);
  program.parse(args, { from: 'user' });
  if (seen === null) throw new Error(`no command ran for ${args.join(' ')}`);
  return seen;
}

describe("docs/drift.md's GitHub Actions job", () => {
  const job = parse(JOB) as { on: Record<string, unknown>; jobs: Record<string, { 'runs-on': string; steps: Step[] }> };
  const steps = job.jobs.drift!.steps;

  it('is a workflow: a schedule, one job on ubuntu, its steps each a run or a uses', () => {
    expect(job.on).toHaveProperty('schedule');
    expect(job.jobs.drift!['runs-on']).toBe('ubuntu-latest');
    for (const s of steps) expect(Number(s.run !== undefined) + Number(s.uses !== undefined)).toBe(1);
  });

  it('runs the proxy, waits for it, stops it and reads its report, each with options the command line takes', () => {
    const lines = steps
      .flatMap((s) => (s.run === undefined ? [] : commands(s.run)))
      .filter((words) => words.includes('split-sandbox'))
      .map((words) => words.slice(words.indexOf('split-sandbox') + 1).map(filled));
    const runs = lines.map((args) => {
      try {
        return parsed(args);
      } catch (e) {
        throw new Error(`split-sandbox ${args.join(' ')}: ${e instanceof CommanderError ? e.message : String(e)}`);
      }
    });
    expect(runs.map((r) => r.command)).toEqual(['drift', 'wait', 'stop', 'drift report']);
    expect(runs[0]!.options).toMatchObject({ upstream: 'https://paytest.example/api', upstreamCard: 'https://paytest.example/api', merchants: 'real-account.json', port: 8080, cardPort: 8081, readyFile: 'drift-ready.json', out: 'drift.json' });
    // Waited for and stopped by the ready file the proxy writes; the report read from the file it keeps.
    expect(runs[1]!.options.readyFile).toBe('drift-ready.json');
    expect(runs[2]!.options.readyFile).toBe('drift-ready.json');
    expect(runs[3]!.options.in).toBe('drift.json');
  });

  it('points the integration at the ports the proxy listens on', () => {
    const env = steps.find((s) => s.run === 'npm test') as Step & { env: Record<string, string> };
    expect(env.env).toEqual({ PAYMENTS_API_URL: 'http://127.0.0.1:8080', PAYMENTS_CARD_URL: 'http://127.0.0.1:8081' });
  });
});

describe('the job check itself', () => {
  it('catches an option the command line does not take', () => {
    expect(() => parsed(['drift', '--upstream', 'https://a.example', '--upstream-card', 'https://b.example', '--merchant', 'x.json'])).toThrow(/unknown option '--merchant'/);
    expect(() => parsed(['drift', 'report', '--in', 'drift.json', '--fail', 'any'])).toThrow(/unknown option/);
    expect(() => parsed(['drift', '--upstream', 'paytest.example', '--upstream-card', 'https://b.example'])).toThrow(/http:\/\/ or https:\/\//);
  });
});
