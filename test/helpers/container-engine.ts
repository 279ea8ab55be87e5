// A container engine for the image tests: a Docker socket when there is one, else Podman's
// Docker-compatible API (`podman system service`) on a socket of our own, configured as these
// machines need (runc, explicit ulimits). The image comes from SANDBOX_IMAGE (.ci/run builds it).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Engine {
  /** For Testcontainers and the docker CLI: `unix:///…`. */
  dockerHost: string;
  /** Runs the engine's CLI (podman or docker) with these arguments; its stdout. */
  cli(args: string[], timeoutMs?: number): string;
  stop(): Promise<void>;
}

const onPath = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Why the image tests cannot run here, or null when they can (an engine to try and an image to run). */
export function whyNoEngine(): string | null {
  if (!process.env.SANDBOX_IMAGE) return 'needs SANDBOX_IMAGE, an image of this build (.ci/run builds one and sets it)';
  if (process.env.DOCKER_HOST || existsSync('/var/run/docker.sock') || onPath('podman')) return null;
  return 'needs a container engine: no DOCKER_HOST, no /var/run/docker.sock, no podman';
}

/** `describe` where the image tests can run; elsewhere `describe.skip`, its name saying why, as the run's summary shows it. */
export function describeOnEngine(name: string, fn: () => void): void {
  const why = whyNoEngine();
  if (why === null) describe(name, fn);
  else describe.skip(`${name}: skipped, ${why}`, fn);
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function until(ok: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export async function startEngine(): Promise<Engine> {
  const existing = process.env.DOCKER_HOST ?? (existsSync('/var/run/docker.sock') ? 'unix:///var/run/docker.sock' : undefined);
  if (existing !== undefined) {
    const env = { ...process.env, DOCKER_HOST: existing };
    return {
      dockerHost: existing,
      cli: (args, timeout = 120_000) => execFileSync('docker', args, { encoding: 'utf8', env, timeout, stdio: ['ignore', 'pipe', 'pipe'] }),
      stop: async () => {},
    };
  }
  // Podman: its API service on a socket in a folder of our own, with a containers.conf that gives every
  // container what ../shared/container/podman.sh passes on the command line.
  const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-engine-'));
  const conf = join(dir, 'containers.conf');
  writeFileSync(
    conf,
    `[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n${onPath('runc') ? '[engine]\nruntime = "runc"\n' : ''}`,
  );
  const socket = join(dir, 'podman.sock');
  const env = { ...process.env, CONTAINERS_CONF: conf };
  const service: ChildProcess = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { env, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => service.once('exit', () => resolve()));
  const stop = async () => {
    if (service.exitCode === null) service.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (service.exitCode === null) service.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  if (!(await until(() => ping(socket), 15_000))) {
    await stop();
    throw new Error('podman system service did not answer on its socket within 15 s');
  }
  return {
    dockerHost: `unix://${socket}`,
    cli: (args, timeout = 120_000) =>
      execFileSync('podman', [...(onPath('runc') ? ['--runtime', 'runc'] : []), ...args], { encoding: 'utf8', env, timeout, stdio: ['ignore', 'pipe', 'pipe'] }),
    stop,
  };
}
