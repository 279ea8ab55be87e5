// What the SQLite driver runs while a function runs: its statements' methods wrapped for that call only.
import Database from 'better-sqlite3';

type Method = 'run' | 'get' | 'all' | 'iterate';

/** What `note` makes of each statement (its SQL, its arguments) that one of `methods` runs while `fn` runs. */
export function statementsRunBy<T>(fn: () => void, note: (sql: string, args: unknown[]) => T, methods: readonly Method[] = ['run', 'get', 'all', 'iterate']): T[] {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<Method, (...a: unknown[]) => unknown>;
  probe.close();
  const real = { ...proto };
  const seen: T[] = [];
  for (const method of methods) {
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      seen.push(note(this.source, args));
      return real[method].apply(this, args);
    };
  }
  try {
    fn();
  } finally {
    for (const method of methods) proto[method] = real[method];
  }
  return seen;
}
