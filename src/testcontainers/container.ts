// SplitSandboxContainer: the sandbox's image started by Testcontainers, in the shape of its other
// modules (@testcontainers/mockserver): `new SplitSandboxContainer().withClock('manual').start()`.
import { randomBytes } from 'node:crypto';
import { AbstractStartedContainer, GenericContainer, type StartedTestContainer, Wait, getContainerRuntimeClient } from 'testcontainers';
import { type MerchantView, SandboxControl } from './control-client';

/** The tag `docker build -t split-sandbox .` gives, in a clone of the repository. */
export const DEFAULT_IMAGE = 'split-sandbox:latest';
export const API_PORT = 8080;
export const CARD_PORT = 8081;

/** How long the image has to answer health on both addresses (it takes about a second). */
const STARTUP_TIMEOUT_MS = 60_000;

/** True when the container engine Testcontainers talks to is Podman (through its Docker-compatible socket). */
async function onPodman(): Promise<boolean> {
  const client = await getContainerRuntimeClient();
  const version = (await client.container.dockerode.version()) as { Components?: { Name?: string }[] };
  return (version.Components ?? []).some((c) => /podman/i.test(c.Name ?? ''));
}

/**
 * The name a container reaches this machine by: `host.containers.internal` on Podman (which defines
 * it), `host.docker.internal` on Docker (which SplitSandboxContainer maps to the host gateway).
 */
export async function hostAddressForContainers(): Promise<string> {
  return (await onPodman()) ? 'host.containers.internal' : 'host.docker.internal';
}

/**
 * The URL at which a sandbox in a container reaches a receiver that listens on `port` in this process
 * (on every address, or the container bridge's): for `withNotifyUrl` or a merchant's NotificationURL.
 */
export async function notificationUrlOnHost(port: number, path = '/'): Promise<string> {
  return `http://${await hostAddressForContainers()}:${port}${path.startsWith('/') ? path : `/${path}`}`;
}

export class SplitSandboxContainer extends GenericContainer {
  private readonly env = new Map<string, string>();
  private controlToken: string | undefined;

  constructor(image: string = DEFAULT_IMAGE) {
    super(image);
    this.withExposedPorts(API_PORT, CARD_PORT)
      // Health answers only once both listeners are up; asked on both, as a test uses both.
      .withWaitStrategy(
        Wait.forAll([
          Wait.forHttp('/_sandbox/health', API_PORT).forStatusCode(200),
          Wait.forHttp('/_sandbox/health', CARD_PORT).forStatusCode(200),
        ]),
      )
      .withStartupTimeout(STARTUP_TIMEOUT_MS);
  }

  /** The scenario of payments that nothing else chooses one for (`two-step`, `one-step`, … or your own). */
  withScenario(name: string): this {
    return this.setting('SANDBOX_SCENARIO', name);
  }

  /** `manual`: sandbox time moves only when the test says (`clock.advance`); `real` (the default) runs by itself. */
  withClock(mode: 'manual' | 'real'): this {
    return this.setting('SANDBOX_CLOCK', mode);
  }

  /** Manual clock start, `yyyyMMddHHmmss` (UTC) or ISO 8601. */
  withStartTime(time: string): this {
    return this.setting('SANDBOX_START_TIME', time);
  }

  /** Reproducible tokens and IDs. */
  withSeed(seed: number): this {
    return this.setting('SANDBOX_SEED', String(seed));
  }

  /** The notification URL of merchants that have none; see `notificationUrlOnHost()` for a receiver in the test. */
  withNotifyUrl(url: string): this {
    return this.setting('SANDBOX_NOTIFY_URL', url);
  }

  /** The control API's token (by default a random one is made for this container). */
  withControlToken(token: string): this {
    this.controlToken = token;
    return this;
  }

  /** Clients the control API also answers without the token: `private`, `loopback`, CIDRs. */
  withControlFrom(...networks: string[]): this {
    return this.setting('SANDBOX_CONTROL_FROM', networks.join(','));
  }

  /** Any other `start` option as its `SANDBOX_*` variable (`SANDBOX_RETAIN`, `SANDBOX_LOG_FORMAT`, …). */
  withSetting(name: `SANDBOX_${string}`, value: string): this {
    return this.setting(name, value);
  }

  private setting(name: string, value: string): this {
    this.env.set(name, value);
    return this;
  }

  override async start(): Promise<StartedSplitSandboxContainer> {
    // Never opened to the world: the control API answers whoever holds this token (and the networks
    // withControlFrom names).
    const token = this.controlToken ?? randomBytes(16).toString('hex');
    this.withEnvironment({ ...Object.fromEntries(this.env), SANDBOX_CONTROL_TOKEN: token });
    // Docker on Linux knows host.docker.internal only when told; Podman defines host.containers.internal itself.
    if (!(await onPodman())) this.withExtraHosts([{ host: 'host.docker.internal', ipAddress: 'host-gateway' }]);
    const started = await super.start();
    const container = new StartedSplitSandboxContainer(started, token);
    await container.loadMerchants();
    return container;
  }
}

export class StartedSplitSandboxContainer extends AbstractStartedContainer {
  private fixtures: MerchantView[] = [];
  /** The control API over HTTP: clock, notifications, merchants, reset. */
  readonly control: SandboxControl;

  constructor(
    started: StartedTestContainer,
    private readonly controlToken: string,
  ) {
    super(started);
    this.control = new SandboxControl(this.getBaseUrl(), controlToken);
  }

  /** The split-payments API as the test reaches it, e.g. `http://127.0.0.1:32768`; RedirectURLs name it too. */
  getBaseUrl(): string {
    return `http://${this.formatHost()}:${this.getMappedPort(API_PORT)}`;
  }

  /** The card API as the test reaches it. */
  getCardBaseUrl(): string {
    return `http://${this.formatHost()}:${this.getMappedPort(CARD_PORT)}`;
  }

  getControlToken(): string {
    return this.controlToken;
  }

  /** Every marketplace of the fixtures, with its credentials and linked split sites (as at start). */
  getMerchants(): MerchantView[] {
    return this.fixtures;
  }

  /** The first marketplace with linked sites: `Authorization: Basic base64(SiteID:APIKey)`. */
  getMerchant(): MerchantView {
    const m = this.fixtures.find((x) => x.LinkedSiteIDs.length > 0) ?? this.fixtures[0];
    if (!m) throw new Error('the sandbox has no merchants');
    return m;
  }

  /** The `Authorization` header of a merchant (the first marketplace by default). */
  basicAuth(merchant: Pick<MerchantView, 'SiteID' | 'APIKey'> = this.getMerchant()): string {
    return 'Basic ' + Buffer.from(`${merchant.SiteID}:${merchant.APIKey}`).toString('base64');
  }

  get clock(): SandboxControl['clock'] {
    return this.control.clock;
  }

  get notifications(): SandboxControl['notifications'] {
    return this.control.notifications;
  }

  /** `merchants.create()`, `list()`, `update()`; `getMerchants()` keeps the fixtures as they were at start. */
  get merchants(): SandboxControl['merchants'] {
    return this.control.merchants;
  }

  reset(): Promise<void> {
    return this.control.reset();
  }

  /** @internal */
  async loadMerchants(): Promise<void> {
    this.fixtures = await this.control.merchants.list();
  }

  private formatHost(): string {
    const host = this.getHost();
    return host.includes(':') ? `[${host}]` : host;
  }
}
