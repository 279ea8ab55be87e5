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
});
