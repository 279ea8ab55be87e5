// What `split-sandbox start` refuses at its edges: a --start-time the API's startDate refuses (in the
// same words), and a --control-token no client could send.
import { CommanderError } from 'commander';
import { controlToken, startTime } from '../../src/cli/options';
import { buildProgram } from '../../src/cli/program';
import { TIMESTAMP_EXPECTED, formatTimestamp, parseTimestamp } from '../../src/domain/time';

/** Runs `start` with `args` in this process up to its first refusal; the line it wrote. */
async function refusal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const program = buildProgram();
  const start = program.commands.find((c) => c.name() === 'start')!;
  let said = '';
  start.exitOverride().configureOutput({ writeErr: (t) => (said += t), writeOut: () => undefined });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    await program.parseAsync(['start', '--db', ':memory:', ...args], { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    return said;
  } finally {
    process.env = saved;
  }
  throw new Error('start did not refuse');
}

describe('--start-time', () => {
  it('takes real 14-digit times and ISO 8601 date-times', () => {
    expect(formatTimestamp(startTime('20260115100000'))).toBe('20260115100000');
    expect(formatTimestamp(startTime('20240229235959'))).toBe('20240229235959');
    expect(formatTimestamp(startTime('2026-01-15T10:00:00Z'))).toBe('20260115100000');
  });

  it.each(['20261399000000', '20260230000000', '99999999999999', '00500101000000', '2026011510000', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '0999-12-31T00:00:00Z', 'soon'])(
    'refuses %s as the API refuses a startDate, in the same words',
    (value) => {
      expect(() => startTime(value)).toThrow(`${TIMESTAMP_EXPECTED} or an ISO 8601 date-time`);
      if (/^[0-9]{14}$/.test(value)) expect(parseTimestamp(value)).toBeNull();
    },
  );

  it('is refused at start with the option named', async () => {
    expect(await refusal(['--start-time', '20260230000000'])).toBe(
      "error: option '--start-time <time>' argument '20260230000000' is invalid. expected yyyyMMddHHmmss (14 digits, UTC) or an ISO 8601 date-time\n",
    );
  });
});

describe('--control-token', () => {
  it('takes visible ASCII', () => {
    expect(controlToken('s3cret-Token_1.~')).toBe('s3cret-Token_1.~');
  });

  it.each([[''], [' '], ['two words'], ['jeton-é'], ['tab\there'], ['x'.repeat(513)]])('refuses token %# (empty, spaces, beyond ASCII, too long): no client could send it', (value) => {
    expect(() => controlToken(value)).toThrow('expected 1 to 512 visible ASCII characters (no spaces): no client could send another token in its Authorization header');
  });

  it('is refused at start, from the command line and from SANDBOX_CONTROL_TOKEN', async () => {
    const line =
      "argument '' is invalid. expected 1 to 512 visible ASCII characters (no spaces): no client could send another token in its Authorization header\n";
    expect(await refusal(['--control-token', ''])).toBe(`error: option '--control-token <token>' ${line}`);
    expect(await refusal([], { SANDBOX_CONTROL_TOKEN: 'jeton-é' })).toMatch(/^error: option '--control-token <token>' value 'jeton-é' from env 'SANDBOX_CONTROL_TOKEN' is invalid\. expected 1 to 512 visible ASCII/);
  });
});
