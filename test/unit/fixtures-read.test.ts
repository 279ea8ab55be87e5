// Fixture files read again by the same process are not checked again; a file whose text changed is.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR, FixtureError, readFixtures } from '../../src/fixtures';
import * as validator from '../../src/schemas/validator';

describe('reading fixtures', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'split-sandbox-fixtures-'));
    cpSync(DEFAULT_FIXTURES_DIR, dir, { recursive: true });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks a file’s text once a process, and hands out a copy of its own each read', () => {
    const spy = jest.spyOn(validator, 'validate');
    const first = readFixtures(dir);
    const checks = spy.mock.calls.length;
    const second = readFixtures(dir);
    expect(checks).toBeGreaterThan(0);
    expect(spy.mock.calls.length).toBe(checks);
    expect(second).toEqual(first);
    expect(second.methods).not.toBe(first.methods);
    expect(second.methods[0]).not.toBe(first.methods[0]);
  });

  it('checks a file whose text changed, and refuses it when it is invalid', () => {
    readFixtures(dir);
    const methods = JSON.parse(readFileSync(join(dir, 'methods.json'), 'utf8')) as { Methods: { Flow: string }[] };
    methods.Methods[0]!.Flow = 'teleport';
    writeFileSync(join(dir, 'methods.json'), JSON.stringify(methods));
    expect(() => readFixtures(dir)).toThrow(FixtureError);
    expect(() => readFixtures(dir)).toThrow(/methods\.json is invalid/);
  });

  it('parses what a read hands out only when it is looked at, and a file read again unchanged not at all', () => {
    readFixtures(dir);
    const parse = jest.spyOn(JSON, 'parse');
    const second = readFixtures(dir);
    expect(parse).not.toHaveBeenCalled();
    expect(second.methods.length).toBeGreaterThan(0);
    expect(parse).toHaveBeenCalledTimes(1);
    second.methods[0]!.Name = 'changed by its reader';
    second.merchants = [];
    const third = readFixtures(dir);
    expect(third.methods[0]!.Name).not.toBe('changed by its reader');
    expect(third.merchants.length).toBeGreaterThan(0);
    expect(second.merchants).toEqual([]);
    expect({ ...third }).toEqual({ merchants: third.merchants, methods: third.methods, exchangeRates: third.exchangeRates });
  });

  it('parses a file it checks once: what it checked is what it hands out', () => {
    readFixtures(dir);
    const file = join(dir, 'methods.json');
    // The same methods in a text not read before: checked again.
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 1));
    const parse = jest.spyOn(JSON, 'parse');
    const check = jest.spyOn(validator, 'validate');
    const fx = readFixtures(dir);
    expect(check).toHaveBeenCalledTimes(1);
    expect(fx.methods.length).toBeGreaterThan(0);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('says a file that is not JSON cannot be read, naming it', () => {
    writeFileSync(join(dir, 'merchants.json'), '{"Merchants": [');
    expect(() => readFixtures(dir)).toThrow(new RegExp(`cannot read fixture ${join(dir, 'merchants.json')}: `));
  });

  it('reads a file again once it is written, even with a text of the same length', () => {
    const file = join(dir, 'merchants.json');
    const before = readFixtures(dir).merchants[0]!.Name;
    const text = readFileSync(file, 'utf8');
    const renamed = 'X'.repeat(before.length);
    writeFileSync(file, text.replace(JSON.stringify(before), JSON.stringify(renamed)));
    expect(readFileSync(file, 'utf8').length).toBe(text.length);
    expect(readFixtures(dir).merchants[0]!.Name).toBe(renamed);
  });
});
