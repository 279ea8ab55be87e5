// Reads scenario files from folders, checks them against their schema, and keeps them by name.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { scenarioFile } from '../schemas/scenario';
import { validate } from '../schemas/validator';
import { PACKAGE_ROOT } from '../package-root';
import { type Scenario, type Step, type StepAction, type TriggerName, parseDuration } from './scenario';
import { fileStamp } from '../file-stamp';

export const SHIPPED_SCENARIOS_DIR = resolve(PACKAGE_ROOT, 'scenarios');

export class ScenarioError extends Error {}

interface StepFile {
  After?: string;
  On?: TriggerName;
  Do: StepAction;
  Split?: number;
  Amount?: number | string;
  Splits?: { Split: number; Amount?: number | string }[];
  NewSplits?: Record<string, unknown>[];
  Refund?: number;
  Description?: string;
  MerchantTransactionID?: string;
}

interface ScenarioFile {
  Name: string;
  Description: string;
  CaptureRequested?: boolean;
  Steps: StepFile[];
  Refunds?: { After?: string; Outcome?: 'succeed' | 'fail' | 'none' };
}

/** Parses one scenario file's content; throws ScenarioError naming the file and the problem. */
export function parseScenario(data: unknown, source: string): Scenario {
  const problems = validate(scenarioFile, data);
  if (problems.length > 0) throw new ScenarioError(`${source}: ${problems.map((p) => p.Info).join('; ')}`);
  const f = data as ScenarioFile;
  const steps: Step[] = f.Steps.map((s, i) => {
    const step: Step = {
      after: parseDuration(s.After ?? '0s')!,
      on: s.On ?? (i === 0 ? 'created' : 'previous'),
      do: s.Do,
    };
    if (s.Split !== undefined) step.split = s.Split;
    if (s.Amount !== undefined) step.amount = s.Amount;
    if (s.Splits) step.splits = s.Splits.map((x) => ({ split: x.Split, amount: x.Amount ?? '100%' }));
    if (s.NewSplits) step.newSplits = s.NewSplits;
    if (s.Refund !== undefined) step.refund = s.Refund;
    if (s.Description !== undefined) step.description = s.Description;
    if (s.MerchantTransactionID !== undefined) step.merchantTransactionId = s.MerchantTransactionID;
    if (s.Do === 'capture-splits' && !s.Splits) throw new ScenarioError(`${source}: Steps[${i}] (capture-splits) needs Splits`);
    if (s.Do === 'add-splits' && !s.NewSplits) throw new ScenarioError(`${source}: Steps[${i}] (add-splits) needs NewSplits`);
    if ((s.Do === 'refund-succeed' || s.Do === 'refund-fail') && s.Refund === undefined) {
      throw new ScenarioError(`${source}: Steps[${i}] (${s.Do}) needs Refund (the payment's refund by index, 0 = the first)`);
    }
    return step;
  });
  return {
    name: f.Name,
    description: f.Description,
    captureRequested: f.CaptureRequested ?? false,
    steps,
    refunds: { after: parseDuration(f.Refunds?.After ?? '1s')!, outcome: f.Refunds?.Outcome ?? 'succeed' },
    source,
  };
}

/**
 * The scenarios this process parsed and found valid, by file, with the stamp of the file they came
 * from: every sandbox of a process (each test's) reads the same shipped folder, and parsing and checking
 * its files again was most of reading it. A file whose stamp moved (any write changes its ctime) is
 * read again. Frozen, since catalogues share them.
 */
const PARSED = new Map<string, { stamp: string; scenario: Scenario }>();

/** One scenario file, parsed and checked (or as parsed before, while its stamp is the same). */
function parsedFile(path: string, file: string): Scenario {
  const stamp = fileStamp(path);
  const kept = stamp === undefined ? undefined : PARSED.get(path);
  if (kept !== undefined && kept.stamp === stamp) return kept.scenario;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ScenarioError(`${path}: not valid JSON: ${(e as Error).message}`);
  }
  const s = parseScenario(data, path);
  if (s.name !== basename(file, '.json')) throw new ScenarioError(`${path}: Name "${s.name}" must match the file name`);
  if (stamp !== undefined) PARSED.set(path, { stamp, scenario: deepFreeze(s) });
  return s;
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export class ScenarioCatalogue {
  private readonly byName = new Map<string, Scenario>();
  private stored: ((name: string) => Scenario | undefined) | undefined;
  /** A folder read when a scenario is first asked for, under those already read (theirs win). */
  private underneath: string | undefined;

  /**
   * Loads every `*.json` of each folder in turn; a later folder's scenario replaces one of the same name.
   * `underneath` (the shipped folder) is read when a scenario is first asked for, as if it came first: a
   * start reads and checks its files off the way to its first answer, and the folders given, the user's,
   * are still checked at once.
   */
  static load(dirs: string[], underneath?: string): ScenarioCatalogue {
    const cat = new ScenarioCatalogue();
    for (const dir of dirs) cat.read(dir, true);
    cat.underneath = underneath;
    return cat;
  }

  private read(dir: string, replace: boolean): void {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    } catch (e) {
      throw new ScenarioError(`cannot read scenarios folder ${dir}: ${(e as Error).message}`);
    }
    for (const file of files) {
      const s = parsedFile(join(dir, file), file);
      if (replace || !this.byName.has(s.name)) this.byName.set(s.name, s);
    }
  }

  /** The scenarios of files, the folder underneath read first if it is still unread. */
  private files(): Map<string, Scenario> {
    if (this.underneath !== undefined) {
      const dir = this.underneath;
      this.underneath = undefined;
      this.read(dir, false);
    }
    return this.byName;
  }

  /**
   * Scenarios kept elsewhere (those of replayed stories, in the store), found when no file has the
   * name: a payment that follows one finds its steps after a restart or a restore too.
   */
  alsoFrom(lookup: (name: string) => Scenario | undefined): void {
    this.stored = lookup;
  }

  get(name: string): Scenario | undefined {
    return this.files().get(name) ?? this.stored?.(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Whether a scenario file (shipped or the user's) has this name. */
  hasFile(name: string): boolean {
    return this.files().has(name);
  }

  list(): Scenario[] {
    return [...this.files().values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
