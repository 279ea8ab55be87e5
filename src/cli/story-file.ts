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
