import { describe, expect, it } from 'vitest';
import { addressNetwork } from '../../../worker/accounts/sign-in/address-network';

describe('addressNetwork', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const network = '2001:db8:a:b::/64';
    expect(addressNetwork('2001:db8:a:b::1')).toBe(network);
    expect(addressNetwork('2001:0DB8:000A:000B:ffff:ffff:ffff:ffff')).toBe(network);
    expect(addressNetwork('2001:db8:a:b:1:2:3:4')).toBe(network);
    expect(addressNetwork('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 client', () => {
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts anything that is not an IP address as it is', () => {
    for (const text of [
      'unknown',
      '1:2:3',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '::ffff:300.0.0.1',
      'fe80::1%eth0',
      '12345::',
    ]) {
      expect(addressNetwork(text)).toBe(text);
    }
  });
});
