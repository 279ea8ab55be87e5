// One Config type with its documented defaults.
import { DEFAULT_FIXTURES_DIR } from './fixtures';

export interface Config {
  /** API listener port (0 picks a free one). */
  port: number;
  /** Card API listener port (0 picks a free one). */
  cardPort: number;
  host: string;
  /** SQLite file, or ':memory:'. */
  db: string;
  fixtures: string;
  pageSize: number;
  /** Whether merchants may cancel Open payments (true) or only Authorized ones (false). */
  cancelOpen: boolean;
  /** Public base URLs, when the sandbox is reached through another address than it listens on. */
  publicUrl?: string;
  publicCardUrl?: string;
  /** Epoch ms the manual clock starts at; undefined for the real clock. */
  manualClockStart?: number;
  seed?: number;
  quiet: boolean;
}

export const DEFAULT_CONFIG: Config = {
  port: 8080,
  cardPort: 8081,
  host: '127.0.0.1',
  db: './split-sandbox.db',
  fixtures: DEFAULT_FIXTURES_DIR,
  pageSize: 10,
  cancelOpen: true,
  quiet: false,
};
