// Log lines: one per request and per notification attempt, at a level, pretty or as JSON lines.

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type LogFormat = 'pretty' | 'json';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  /** Whether lines of `level` are written: callers skip building costly ones. */
  enabled(level: LogLevel): boolean;
}

export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {}, enabled: () => false };

export function createLogger(level: LogLevel, format: LogFormat, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (l: LogLevel) => (msg: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(l) > rank) return;
    if (format === 'json') {
      write(JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...fields }) + '\n');
    } else {
      const tail = Object.entries(fields)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      write(`${new Date().toISOString().slice(11, 23)} ${l.padEnd(5)} ${msg}${tail ? ' ' + tail : ''}\n`);
    }
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), enabled: (l) => LOG_LEVELS.indexOf(l) <= rank };
}
