// What a `start` loads before it listens: Node's built-ins for TLS, threads and compression are left to the first use that needs them.
import { execFileSync } from 'node:child_process';
import { BIN, ensureBuilt } from './process';

/** Starts the built CLI in this process's image of a start, and names the built-ins loaded once both listeners are up. */
function builtinsAtListening(): string[] {
  const script = `
    const http = require('node:http');
    const listen = http.Server.prototype.listen;
    let up = 0;
    http.Server.prototype.listen = function (...args) {
      this.once('listening', () => {
        if (++up < 2) return;
        const names = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
        process.stdout.write('BUILTINS ' + JSON.stringify(names) + '\\n');
        process.exit(0);
      });
      return listen.apply(this, args);
    };
    process.argv = [process.execPath, ${JSON.stringify(BIN)}, 'start', '--db', ':memory:', '--port', '0', '--card-port', '0', '--quiet'];
    require(${JSON.stringify(BIN)});
  `;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(/^BUILTINS (.*)$/m.exec(out)![1]!) as string[];
}

describe('what a start loads', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('listens without loading node:https or node:tls (the drift command and https notifications load them when used)', () => {
    const loaded = builtinsAtListening();
    expect(loaded).toContain('http');
    expect(loaded.filter((m) => /^(https|tls|_tls_wrap)$/.test(m))).toEqual([]);
  });

  it('listens without loading worker_threads, zlib or fs/promises (copies, checkpoints and compressed bodies load them when used)', () => {
    const loaded = builtinsAtListening();
    expect(loaded.filter((m) => /^(worker_threads|zlib|fs\/promises)$/.test(m))).toEqual([]);
  });
});
