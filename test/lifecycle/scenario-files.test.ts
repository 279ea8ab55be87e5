// Scenario files: every shipped one validates; a broken one is refused with a message naming the file.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/main';
import * as validator from '../../src/schemas/validator';
import { SHIPPED_SCENARIOS_DIR, ScenarioCatalogue, ScenarioError, parseScenario } from '../../src/scenarios/loader';

const SHIPPED = [
  'cancelled-by-payer',
  'expired',
  'failed',
  'one-step',
  'partial-capture',
  'payer-decides',
  'refund-then-add-splits',
  'two-step',
  'two-step-capture-requested',
];

describe('shipped scenario files', () => {
  const files = readdirSync(SHIPPED_SCENARIOS_DIR).filter((f) => f.endsWith('.json')).sort();

  it('are exactly the nine documented scenarios', () => {
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(SHIPPED);
  });

  it.each(files)('%s validates with parseScenario, and its Name matches the file name', (file) => {
    const path = join(SHIPPED_SCENARIOS_DIR, file);
    const s = parseScenario(JSON.parse(readFileSync(path, 'utf8')), path);
    expect(s.name).toBe(file.replace(/\.json$/, ''));
    expect(s.description.length).toBeGreaterThan(0);
    // payer-decides has none: the payer, or the control API, moves its payments.
    expect(s.steps.length > 0 || s.name === 'payer-decides').toBe(true);
    expect(s.source).toBe(path);
    for (const step of s.steps) expect(step.after).toBeGreaterThanOrEqual(0);
  });

  it('load as one catalogue, with the steps their descriptions promise', () => {
    const cat = ScenarioCatalogue.load([SHIPPED_SCENARIOS_DIR]);
    expect(cat.list().map((s) => s.name)).toEqual(SHIPPED);
    const steps = (name: string) => cat.get(name)!.steps.map((s) => [s.on, s.after, s.do]);
    expect(steps('one-step')).toEqual([['created', 2000, 'succeed']]);
    expect(steps('two-step')).toEqual([['created', 2000, 'authorize']]);
    expect(steps('two-step-capture-requested')).toEqual([
      ['created', 2000, 'authorize'],
      ['capture', 2000, 'settle'],
    ]);
    expect(cat.get('two-step-capture-requested')!.captureRequested).toBe(true);
    expect(steps('partial-capture')).toEqual([
      ['created', 2000, 'authorize'],
      ['previous', 1000, 'capture-splits'],
    ]);
    expect(steps('failed')).toEqual([['created', 2000, 'fail']]);
    expect(steps('expired')).toEqual([['created', 5000, 'expire']]);
    expect(steps('cancelled-by-payer')).toEqual([['created', 2000, 'cancel']]);
    expect(steps('payer-decides')).toEqual([]);
    expect(steps('refund-then-add-splits')).toEqual([
      ['created', 2000, 'succeed'],
      ['previous', 1000, 'refund'],
      ['previous', 2000, 'add-splits'],
    ]);
    for (const s of cat.list()) expect(s.refunds).toEqual({ after: 1000, outcome: 'succeed' });
  });
});

describe('broken scenario files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-scenarios-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = () => ScenarioCatalogue.load([SHIPPED_SCENARIOS_DIR, dir]);
  const refusal = (): ScenarioError => {
    try {
      load();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      return e as ScenarioError;
    }
    throw new Error('the catalogue loaded a broken scenario file');
  };

  const cases: [string, string, string, RegExp][] = [
    ['not JSON', 'oops.json', '{"Name": "oops", ', /not valid JSON/],
    ['missing Description', 'nodesc.json', JSON.stringify({ Name: 'nodesc', Steps: [] }), /Description/],
    ['unknown action', 'badstep.json', JSON.stringify({ Name: 'badstep', Description: 'x', Steps: [{ Do: 'explode' }] }), /Do/],
    ['bad duration', 'baddur.json', JSON.stringify({ Name: 'baddur', Description: 'x', Steps: [{ After: 'soon', Do: 'fail' }] }), /After/],
    ['unknown key', 'extra.json', JSON.stringify({ Name: 'extra', Description: 'x', Steps: [], Colour: 'red' }), /Colour/],
    ['capture-splits without Splits', 'nosplits.json', JSON.stringify({ Name: 'nosplits', Description: 'x', Steps: [{ Do: 'capture-splits' }] }), /Steps\[0\].*needs Splits/],
    ['add-splits without NewSplits', 'nonew.json', JSON.stringify({ Name: 'nonew', Description: 'x', Steps: [{ Do: 'add-splits' }] }), /needs NewSplits/],
    ['Name not matching the file', 'named.json', JSON.stringify({ Name: 'other-name', Description: 'x', Steps: [] }), /Name "other-name" must match the file name/],
  ];

  it.each(cases)('%s: refused with a message naming the file', (_what, file, content, why) => {
    writeFileSync(join(dir, file), content);
    const e = refusal();
    expect(e.message).toContain(join(dir, file));
    expect(e.message).toMatch(why);
  });

  it('parseScenario names the source it is given', () => {
    expect(() => parseScenario({ Name: 'x' }, 'somewhere/x.json')).toThrow(/^somewhere\/x\.json: /);
  });

  it('a good file of the user loads next to the shipped ones, and may replace one of them', () => {
    writeFileSync(join(dir, 'slow-pay.json'), JSON.stringify({ Name: 'slow-pay', Description: 'Pays after 1 h.', Steps: [{ After: '1h', Do: 'succeed' }] }));
    writeFileSync(join(dir, 'failed.json'), JSON.stringify({ Name: 'failed', Description: 'Fails at once.', Steps: [{ Do: 'fail' }] }));
    const cat = load();
    expect(cat.list()).toHaveLength(SHIPPED.length + 1);
    expect(cat.get('slow-pay')!.steps[0]).toMatchObject({ after: 3_600_000, do: 'succeed', on: 'created' });
    expect(cat.get('failed')!.source).toBe(join(dir, 'failed.json'));
    expect(cat.get('failed')!.steps[0]!.after).toBe(0);
  });

  it('startSandbox refuses to start with a broken scenario folder, naming the file', async () => {
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ Name: 'broken', Description: 'x', Steps: [{ Do: 'nothing' }] }));
    await expect(
      startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', quiet: true, scenarioDirs: [dir] }),
    ).rejects.toThrow(join(dir, 'broken.json'));
  });

  it('a missing scenario folder is refused, naming the folder', () => {
    const missing = join(dir, 'does-not-exist');
    expect(() => ScenarioCatalogue.load([missing])).toThrow(new RegExp(`cannot read scenarios folder ${missing.replace(/[/\\.]/g, '\\$&')}`));
  });

  it('startSandbox refuses an unknown `scenario` start option', async () => {
    await expect(startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', quiet: true, scenario: 'nope' })).rejects.toThrow(
      /unknown scenario "nope"/,
    );
  });
});

describe('a folder read underneath', () => {
  let mine: string;
  let under: string;
  beforeEach(() => {
    mine = mkdtempSync(join(tmpdir(), 'split-sandbox-scenarios-mine-'));
    under = mkdtempSync(join(tmpdir(), 'split-sandbox-scenarios-under-'));
  });
  afterEach(() => {
    rmSync(mine, { recursive: true, force: true });
    rmSync(under, { recursive: true, force: true });
  });

  const scenario = (name: string, description: string) =>
    JSON.stringify({ Name: name, Description: description, Steps: [{ After: '1s', Do: 'succeed' }] });

  it('is read when a scenario is first asked for, not when the catalogue is made (the shipped folder at a start)', () => {
    writeFileSync(join(under, 'broken.json'), '{ not json');
    const cat = ScenarioCatalogue.load([mine], under);
    expect(() => cat.has('anything')).toThrow(/broken\.json: not valid JSON/);
  });

  it("holds what the given folders do not: a scenario of theirs replaces one of the same name underneath", () => {
    writeFileSync(join(under, 'shared.json'), scenario('shared', 'from underneath'));
    writeFileSync(join(under, 'only-under.json'), scenario('only-under', 'from underneath'));
    writeFileSync(join(mine, 'shared.json'), scenario('shared', 'mine'));
    const cat = ScenarioCatalogue.load([mine], under);
    expect(cat.get('shared')?.description).toBe('mine');
    expect(cat.hasFile('only-under')).toBe(true);
    expect(cat.list().map((s) => [s.name, s.description])).toEqual([
      ['only-under', 'from underneath'],
      ['shared', 'mine'],
    ]);
  });

  it('starts a sandbox whose shipped scenarios and the user\'s are both there, the user\'s winning', async () => {
    writeFileSync(join(mine, 'two-step.json'), scenario('two-step', 'mine'));
    const sandbox = await startSandbox({ db: ':memory:', port: 0, cardPort: 0, quiet: true, scenarioDirs: [mine] });
    try {
      expect(sandbox.services.scenarios!.get('two-step')?.description).toBe('mine');
      expect(sandbox.services.scenarios!.has('one-step')).toBe(true);
    } finally {
      await sandbox.stop();
    }
  });
});

describe('scenario files read again by the same process', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-scenarios-again-'));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  const scenario = (name: string, description: string, after = '1s') =>
    JSON.stringify({ Name: name, Description: description, Steps: [{ After: after, Do: 'succeed' }] });

  it('are not parsed nor checked again while unchanged, and no catalogue can change what another holds', () => {
    writeFileSync(join(dir, 'again.json'), scenario('again', 'first'));
    const first = ScenarioCatalogue.load([dir], SHIPPED_SCENARIOS_DIR);
    expect(first.list()).toHaveLength(SHIPPED.length + 1);
    const spy = jest.spyOn(validator, 'validate');
    const second = ScenarioCatalogue.load([dir], SHIPPED_SCENARIOS_DIR);
    expect(second.list()).toEqual(first.list());
    expect(spy).not.toHaveBeenCalled();
    const step = second.get('again')!.steps[0]!;
    expect(() => {
      step.after = 5;
    }).toThrow(TypeError);
    expect(first.get('again')!.steps[0]!.after).toBe(1000);
  });

  it('are read again once edited, even to a text of the same length: the next catalogue and the next start see the edit', async () => {
    const file = join(dir, 'edited.json');
    writeFileSync(file, scenario('edited', 'aaaa', '1s'));
    expect(ScenarioCatalogue.load([dir]).get('edited')!.steps[0]!.after).toBe(1000);
    writeFileSync(file, scenario('edited', 'bbbb', '2s'));
    const cat = ScenarioCatalogue.load([dir]);
    expect(cat.get('edited')!.description).toBe('bbbb');
    expect(cat.get('edited')!.steps[0]!.after).toBe(2000);
    writeFileSync(file, scenario('edited', 'cccc', '3s'));
    const sandbox = await startSandbox({ db: ':memory:', port: 0, cardPort: 0, quiet: true, clock: 'manual', scenarioDirs: [dir] });
    try {
      expect(sandbox.services.scenarios!.get('edited')?.description).toBe('cccc');
      expect(sandbox.services.scenarios!.get('edited')!.steps[0]!.after).toBe(3000);
    } finally {
      await sandbox.stop();
    }
    writeFileSync(file, '{ "Name": "edited", ');
    expect(() => ScenarioCatalogue.load([dir])).toThrow(/edited\.json: not valid JSON/);
  });
});
