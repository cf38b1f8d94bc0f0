import { describe, expect, it } from 'vitest';
import { classifyAddress, refusedAddressClass } from './address-policy.js';

describe('the address classification shared by both halves of the egress guard', () => {
  it.each([
    ['8.8.8.8', undefined],
    ['2606:4700::1111', undefined],
    ['64:ff9b::808:808', undefined], // NAT64 of a public address
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['64:ff9b:1::a', 'private'],
    ['64:ff9b::a00:1', 'private'], // NAT64 of 10.0.0.1
    ['169.254.1.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['FD00:EC2::254', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['not-an-address', 'reserved'],
  ])('%s → %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('admits only loopback and private addresses when private egress is allowed', () => {
    expect(refusedAddressClass('127.0.0.1', true)).toBeUndefined();
    expect(refusedAddressClass('10.0.0.1', true)).toBeUndefined();
    expect(refusedAddressClass('169.254.169.254', true)).toBe('metadata');
    expect(refusedAddressClass('fe80::1', true)).toBe('linkLocal');
    expect(refusedAddressClass('0.0.0.0', true)).toBe('reserved');
    expect(refusedAddressClass('10.0.0.1', false)).toBe('private');
  });
});
