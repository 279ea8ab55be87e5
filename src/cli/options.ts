// Parsing of CLI option values, with messages a person can act on.
import { InvalidArgumentError } from 'commander';
import { NetworkListError, clientTest, splitNetworks } from '../http/control/networks';
import { FIRST_WIRE_MS, LAST_WIRE_MS, TIMESTAMP_EXPECTED, parseTimestamp } from '../domain/time';
import { parseDuration } from '../scenarios/scenario';

export function port(value: string): number {
  const n = Number(value);
  if (!/^[0-9]{1,5}$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
}

export function positiveInt(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return n;
  };
}

/** A whole number from 0 (which turns the thing it counts off) to `max`. */
export function wholeNumber(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n > max) throw new InvalidArgumentError(`expected a whole number from 0 to ${max}`);
    return n;
  };
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A size: 64MiB, 512MB, 8388608 (a bare number is bytes); KB, MB, GB are of 1000, KiB, MiB, GiB of 1024. From `min` up. */
export function byteSize(min: number) {
  return (value: string): number => {
    const m = /^([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)$/.exec(value.trim());
    const unit = m ? BYTE_UNITS[m[2]!.toLowerCase()] : undefined;
    const n = m && unit !== undefined ? Math.round(Number(m[1]) * unit) : NaN;
    if (!Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`expected a size of at least ${min} bytes, such as 64MiB, 512MB or 8388608 (bytes)`);
    return n;
  };
}

/** A size in bytes as the help and docs/configuration.md write it: 67108864 → "64MiB". */
export function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)}MiB` : `${bytes}`;
}

export function duration(value: string): number {
  const ms = /^[0-9]+$/.test(value) ? Number(value) : parseDuration(value);
  if (ms === null) throw new InvalidArgumentError('expected a duration such as 30s, 500ms or 2m (a bare number is milliseconds)');
  return ms;
}

export function httpUrl(value: string): string {
  if (!/^https?:\/\/\S+$/.test(value)) throw new InvalidArgumentError('expected an http:// or https:// URL');
  return value;
}

export function clockMode(value: string): 'real' | 'manual' {
  if (value !== 'real' && value !== 'manual') throw new InvalidArgumentError('expected real or manual');
  return value;
}

/**
 * A start time: 14 digits (yyyyMMddHHmmss, UTC), refused as the API's startDate refuses it (a date
 * that does not exist, such as 20260230000000), or an ISO 8601 date-time of a real day, of the years
 * whose wire form has 14 digits.
 */
export function startTime(value: string): number {
  const expected = `${TIMESTAMP_EXPECTED} or an ISO 8601 date-time`;
  if (/^[0-9]+$/.test(value)) {
    const ms = parseTimestamp(value);
    if (ms === null) throw new InvalidArgumentError(expected);
    return ms;
  }
  const ms = Date.parse(value);
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  // Date.parse takes 2026-02-30 as 2026-03-02: the day must exist as written.
  const real = day !== null && parseTimestamp(`${day[1]}${day[2]}${day[3]}000000`) !== null;
  if (!real || !Number.isFinite(ms) || ms < FIRST_WIRE_MS || ms > LAST_WIRE_MS) throw new InvalidArgumentError(expected);
  return ms;
}

/**
 * The control token the sandbox asks for: what an Authorization header can carry. An empty token, or
 * one with spaces or characters beyond ASCII, could never be sent and would lock every client out.
 */
export function controlToken(value: string): string {
  if (!/^[\x21-\x7e]{1,512}$/.test(value)) {
    throw new InvalidArgumentError('expected 1 to 512 visible ASCII characters (no spaces): no client could send another token in its Authorization header');
  }
  return value;
}

/** A real clock's speed: a number from 1 (real time) up, such as 60 or 2.5. */
export function speed(value: string): number {
  const n = Number(value);
  if (!/^[0-9]{1,6}(\.[0-9]{1,3})?$/.test(value) || n < 1) throw new InvalidArgumentError('expected a number from 1 up, such as 60 (sandbox time runs 60 times as fast)');
  return n;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function choice<T extends string>(allowed: readonly T[]) {
  return (value: string): T => {
    if (!allowed.includes(value as T)) throw new InvalidArgumentError(`expected one of ${allowed.join(', ')}`);
    return value as T;
  };
}

/** A retention period: 7d, 12h, 30m, 90s (a bare number is milliseconds); at least a second. */
export function retention(value: string): number {
  const days = /^([0-9]+(?:\.[0-9]+)?)d$/.exec(value.trim());
  const ms = days ? Math.round(Number(days[1]) * 86_400_000) : /^[0-9]+$/.test(value) ? Number(value) : parseDuration(value);
  if (ms === null || ms < 1000) throw new InvalidArgumentError('expected a duration of at least a second, such as 7d, 12h or 30m');
  return ms;
}

/** `loopback,private,172.18.0.0/16`: the entries, each checked. */
export function networks(value: string): string[] {
  const entries = splitNetworks(value);
  try {
    clientTest(entries);
  } catch (e) {
    if (e instanceof NetworkListError) throw new InvalidArgumentError(e.message);
    throw e;
  }
  return entries;
}

/** A duration in milliseconds as the help and docs/configuration.md write it: 30000 → "30s". */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
