import { privateKind, refusalOf } from '../src/domain/address-policy';

describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'private (unique local)'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
  ])('%s is %s', (address, kind) => {
    expect(privateKind(address)).toBe(kind);
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14', '172.32.0.1'])('%s is public', (address) => {
    expect(privateKind(address)).toBeUndefined();
  });

  it('the allow-list exempts exact host names and CIDR ranges, nothing else', () => {
    const policy = { allowPrivate: false, allowedHosts: ['hooks.internal', '10.1.0.0/16'] };
    expect(refusalOf('hooks.internal', '10.9.9.9', policy)).toBeUndefined();
    expect(refusalOf('other.internal', '10.1.2.3', policy)).toBeUndefined();
    expect(refusalOf('other.internal', '10.2.0.1', policy)).toBe('10.2.0.1 is a private address');
    expect(refusalOf('x', '::ffff:10.1.0.5', policy)).toBeUndefined();
    expect(refusalOf('x', '127.0.0.1', { allowPrivate: true, allowedHosts: [] })).toBeUndefined();
  });
});
