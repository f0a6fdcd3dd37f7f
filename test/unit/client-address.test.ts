import { clientLimitKey } from '../../domain/tenancy/client-address';

// The key every address-keyed rate limit counts by: one per IPv4 address, one per IPv6 /64.

describe('clientLimitKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientLimitKey('203.0.113.10')).not.toBe(clientLimitKey('203.0.113.9'));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, however written', () => {
    for (const mapped of ['::ffff:203.0.113.9', '::FFFF:203.0.113.9', '::ffff:cb00:7109', '0:0:0:0:0:ffff:cb00:7109'])
      expect(clientLimitKey(mapped)).toBe('203.0.113.9');
  });

  it('counts every address of an IPv6 /64 as one, however written', () => {
    const key = clientLimitKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of [
      '2001:db8:1:2::ffff',
      '2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd',
      '2001:db8:1:2:0:0:0:1',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::192.0.2.1',
    ])
      expect(clientLimitKey(same)).toBe(key);
    expect(clientLimitKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(clientLimitKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps what is no address as it is', () => {
    for (const other of ['unknown', '2001:db8::1::2', '1:2:3:4:5:6:7:8:9', '256.1.1.1', '12345::1'])
      expect(clientLimitKey(other)).toBe(other);
  });
});
