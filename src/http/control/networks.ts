// Which clients the control API answers without a token (`--control-from`): named networks, addresses
// and CIDR ranges, matched by Node's own BlockList (which also matches IPv4-mapped IPv6 addresses).
import { BlockList, isIP } from 'node:net';

type Range = [address: string, prefix: number];

const LOOPBACK: Range[] = [
  ['127.0.0.0', 8],
  ['::1', 128],
];

/** The names a list may use besides addresses and ranges. */
const NAMED: Record<string, Range[]> = {
  none: [],
  loopback: LOOPBACK,
  // RFC 1918 and unique-local IPv6: container bridges (Docker 172.17.0.0/16, Podman 10.88.0.0/16),
  // CI service networks, a private LAN. This machine is more trusted than those, so it is included.
  private: [...LOOPBACK, ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['fc00::', 7]],
  any: [
    ['0.0.0.0', 0],
    ['::', 0],
  ],
};

export class NetworkListError extends Error {}

/** A test of a client's address against a list such as `["loopback", "172.18.0.0/16"]`. */
export type ClientTest = (address: string | undefined) => boolean;

/**
 * The default list, loopback alone, is tested without a BlockList: making one, and Node's first isIP,
 * took some 8 ms of every start, a twentieth of a cold start. Node gives a client's address in its
 * canonical form, so loopback is these prefixes (an IPv4 client of a dual-stack socket as ::ffff:127.…).
 */
function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

/** Parses the entries; throws NetworkListError naming the first one that is neither a name, an address nor a range. */
export function clientTest(entries: readonly string[]): ClientTest {
  if (entries.length > 0 && entries.every((e) => e.trim().toLowerCase() === 'loopback')) return isLoopback;
  const list = new BlockList();
  let empty = true;
  for (const raw of entries) {
    const entry = raw.trim();
    const ranges = NAMED[entry.toLowerCase()] ?? [parseRange(entry)];
    for (const [address, prefix] of ranges) {
      list.addSubnet(address, prefix, isIP(address) === 6 ? 'ipv6' : 'ipv4');
      empty = false;
    }
  }
  if (empty) return () => false;
  return (address) => {
    const family = address === undefined ? 0 : isIP(address);
    return family !== 0 && list.check(address!, family === 6 ? 'ipv6' : 'ipv4');
  };
}

function parseRange(entry: string): Range {
  const [address = '', prefixText, extra] = entry.split('/');
  const family = isIP(address);
  const max = family === 6 ? 128 : 32;
  const prefix = prefixText === undefined ? max : /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (family === 0 || extra !== undefined || !(prefix >= 0 && prefix <= max)) {
    throw new NetworkListError(
      `"${entry}" is not loopback, private, any, none, an IP address or a CIDR range such as 172.16.0.0/12`,
    );
  }
  return [address, prefix];
}

/** The entries of a comma-separated list (`loopback,10.0.0.0/8`). */
export function splitNetworks(text: string): string[] {
  return text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
}
