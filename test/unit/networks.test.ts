import { clientTest } from '../../src/http/control/networks';

describe('clientTest', () => {
  // The default list takes a path of its own (no BlockList); it must answer as the BlockList does.
  const addresses = ['127.0.0.1', '127.255.3.4', '::1', '::ffff:127.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', '192.168.1.1', '128.0.0.1', '::2', 'fe80::1', '1.127.0.0'];

  it('loopback alone answers as the BlockList of loopback ranges does', () => {
    const fast = clientTest(['loopback']);
    const listed = clientTest(['loopback', 'none']);
    for (const a of addresses) expect([a, fast(a)]).toEqual([a, listed(a)]);
    expect(addresses.filter((a) => fast(a))).toEqual(['127.0.0.1', '127.255.3.4', '::1', '::ffff:127.0.0.1']);
    expect(fast(undefined)).toBe(false);
  });

  it('names are read whatever their case and spacing', () => {
    expect(clientTest([' Loopback '])('127.0.0.1')).toBe(true);
    expect(clientTest([' Loopback '])('10.0.0.1')).toBe(false);
    expect(clientTest(['private'])('10.0.0.1')).toBe(true);
    expect(clientTest([])('127.0.0.1')).toBe(false);
  });
});
