// Reading a story or scenario file for the CLI, with messages a person can act on.
import { readFileSync } from 'node:fs';
import { parseDuration } from '../scenarios/scenario';
import { CliError } from './client';

export interface StoryLike {
  Name?: unknown;
  Steps?: unknown;
  Request?: { Payment?: Record<string, unknown> };
  Story?: { PaymentID?: number; SiteID?: number };
  [key: string]: unknown;
}

/** A file name of the current folder and nothing else: no separator, no leading dot, short. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The file a story is written to without --out: `<Name>.json` (so that --scenarios loads it under
 * its name) when the Name the sandbox answered is a plain file name, `story-<id>.json` otherwise:
 * whatever a server answers, nothing is written outside the current folder.
 */
export function storyFileName(name: unknown, paymentId: string): string {
  return typeof name === 'string' && PLAIN_NAME.test(name) ? `${name}.json` : `story-${paymentId}.json`;
}

/** Whether a command's argument names a file rather than a scenario. */
export function looksLikeFile(arg: string): boolean {
  return /[\\/]/.test(arg) || arg.endsWith('.json');
}

export function readStoryFile(file: string): StoryLike {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file} is not JSON: ${(e as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new CliError(`${file} is not a story or scenario file (a JSON object)`);
  return data as StoryLike;
}

/** "12 steps over 8.5 s" of a story's steps (each at a fixed offset). */
export function span(story: StoryLike): string {
  const steps = Array.isArray(story.Steps) ? (story.Steps as { After?: string }[]) : [];
  const last = Math.max(0, ...steps.map((s) => (typeof s.After === 'string' ? (parseDuration(s.After) ?? 0) : 0)));
  return `${steps.length} step${steps.length === 1 ? '' : 's'} over ${(last / 1000).toFixed(1)} s of sandbox time`;
}
