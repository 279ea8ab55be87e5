// "Is this URL one of my listeners?": the sandbox never sends a notification to itself (its bound and
// public addresses, any path, any spelling of this machine, any name that resolves to it), and no
// route answers a request that arrives on a connection the sandbox opened to send a notification.
import { BlockList, isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/**
 * Addresses that always mean this machine, whatever interface a listener is bound to: made when first
 * tested, as Node's BlockList is loaded when first made, which no start needs before its first answer.
 */
let thisMachine: BlockList | undefined;
function alwaysThisMachine(): BlockList {
  if (thisMachine === undefined) {
    thisMachine = new BlockList();
    thisMachine.addSubnet('127.0.0.0', 8, 'ipv4');
    thisMachine.addAddress('0.0.0.0', 'ipv4');
    thisMachine.addAddress('::1', 'ipv6');
    thisMachine.addAddress('::', 'ipv6');
  }
  return thisMachine;
}

/** `[::1]` → `::1`, `LocalHost.` → `localhost`, an IPv4-mapped IPv6 address (`::ffff:7f00:1`) → `127.0.0.1`. */
function plainHost(host: string): string {
  const h = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return isIP(h) === 6 ? (mappedIpv4(h) ?? h) : h;
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (any spelling), or null. */
function mappedIpv4(ipv6: string): string | null {
  // The URL parser writes every IPv6 address one way: a mapped one as ::ffff:hhhh:hhhh (one with a
  // zone, fe80::1%eth0, it does not take, and that is no mapped one).
  let canonical: string;
  try {
    canonical = new URL(`http://[${ipv6}]/`).hostname;
  } catch {
    return null;
  }
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!m) return null;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether `host` (an address or a name, as a URL's hostname gives it) names this machine. */
export function isThisMachine(host: string): boolean {
  const h = plainHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === hostname().toLowerCase()) return true;
  const family = isIP(h);
  if (family === 0) return false;
  // Node's BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against IPv4 rules.
  if (alwaysThisMachine().check(h, family === 6 ? 'ipv6' : 'ipv4')) return true;
  for (const list of Object.values(networkInterfaces())) {
    for (const i of list ?? []) if (plainHost(i.address) === h) return true;
  }
  return false;
}

/** What a refusal says of an address the sandbox would have connected to. */
function named(url: string, address: string): string {
  const host = plainHost(new URL(url).hostname);
  return host === plainHost(address) ? url : `${url} (${plainHost(address)})`;
}

function portOf(u: URL): number {
  if (u.port !== '') return Number(u.port);
  return u.protocol === 'https:' ? 443 : 80;
}

interface Bound {
  what: string;
  host: string;
  port: number;
}

interface Public {
  what: string;
  host: string;
  port: number;
}

/**
 * The listeners of one sandbox: where they are bound (host and port, known once they listen) and the
 * public URLs they are reached by. Answers with the reason a URL is refused, or null.
 */
export class OwnListeners {
  private readonly bound: Bound[] = [];
  private readonly publics: Public[] = [];

  /** A listener bound to `host:port` (`0.0.0.0` or `::` for every interface). */
  addBound(what: string, host: string, port: number): void {
    this.bound.push({ what, host: plainHost(host), port });
  }

  /** A public URL (`--public-url`) by which clients reach a listener. */
  addPublic(what: string, url: string): void {
    try {
      const u = new URL(url);
      this.publics.push({ what, host: plainHost(u.hostname), port: portOf(u) });
    } catch {
      // Not a URL: nothing can reach the sandbox by it.
    }
  }

  /**
   * Why `url` reaches this sandbox's own listeners (any path), or null when it does not. Decided by
   * the bound addresses and the configured public URLs only: what a client's Host header says is
   * not the sandbox's to trust.
   */
  reasonFor(url: string): string | null {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    const host = plainHost(u.hostname);
    const port = portOf(u);
    for (const p of this.publics) {
      if (p.host === host && p.port === port) return `${url} is this sandbox's own ${p.what} (its public URL); the sandbox sends no notification to itself`;
    }
    return this.reasonForAddress(url, host, port);
  }

  /**
   * Why a connection to `address:port`, the address `url`'s host was resolved to (or is), would reach
   * this sandbox's own listeners, or null. Decides on the address actually connected to, so that a
   * name that means this machine (in /etc/hosts, in DNS) is refused as its address would be.
   */
  reasonForAddress(url: string, address: string, port: number): string | null {
    const host = plainHost(address);
    for (const b of this.bound) {
      if (b.port !== port) continue;
      if (host === b.host || isThisMachine(host)) {
        return `${named(url, address)} is this sandbox's own ${b.what} (listening on port ${b.port}); the sandbox sends no notification to itself`;
      }
    }
    return null;
  }
}

/**
 * This process's outgoing notification connections while they are open: by local port, the ports
 * they reach. Both ends, because Linux gives one local port to connections to different addresses:
 * a client of this machine (a test's) may send from a port a notification to somebody else holds.
 */
const OUTGOING = new Map<number, number[]>();

/** Notes a connection the sandbox opened to send a notification, until it closes. */
export function noteOutgoing(socket: { localPort?: number | undefined; remotePort?: number | undefined; once(event: 'close', fn: () => void): unknown }): void {
  const port = socket.localPort;
  const to = socket.remotePort;
  if (port === undefined || to === undefined) return;
  const reached = OUTGOING.get(port);
  if (reached) reached.push(to);
  else OUTGOING.set(port, [to]);
  socket.once('close', () => {
    const left = OUTGOING.get(port)?.filter((p, i, all) => p !== to || all.indexOf(to) !== i);
    if (left === undefined || left.length === 0) OUTGOING.delete(port);
    else OUTGOING.set(port, left);
  });
}

/**
 * Whether a request arrived on a connection this process opened itself (a notification pointed at
 * its own address): from this machine, from the port of one of our outgoing connections, to the port
 * that connection reached (the listener the request came in on).
 */
export function madeByThisProcess(socket: { remoteAddress?: string | undefined; remotePort?: number | undefined; localPort?: number | undefined }): boolean {
  const { remoteAddress, remotePort, localPort } = socket;
  if (remotePort === undefined || localPort === undefined || remoteAddress === undefined) return false;
  return OUTGOING.get(remotePort)?.includes(localPort) === true && isThisMachine(remoteAddress);
}
