import { describe, expect, it } from 'vitest';
import { egressRefusalOf } from './url-policy.js';

const reason = (url: string, allowPrivateEgress = false) => egressRefusalOf(new URL(url), allowPrivateEgress)?.reason;

describe('the save-time egress policy for URLs', () => {
  it.each([
    ['https://api.openai.com/v1', undefined],
    ['https://8.8.8.8/v1', undefined],
    ['https://[2606:4700::1111]/v1', undefined],
    ['http://api.openai.com/v1', 'scheme'],
    ['https://127.0.0.1/v1', 'loopback'],
    ['https://2130706433/v1', 'loopback'], // the URL parser normalises decimal IPv4
    ['https://localhost:8443', 'loopback'],
    ['https://models.localhost', 'loopback'],
    ['https://[::1]', 'loopback'],
    ['https://10.0.0.8', 'private'],
    ['https://172.20.1.1', 'private'],
    ['https://192.168.0.10', 'private'],
    ['https://100.64.0.1', 'private'],
    ['https://[fd12::1]', 'private'],
    ['https://[::ffff:10.1.2.3]', 'private'],
    ['https://169.254.1.1', 'linkLocal'],
    ['https://[fe80::1]', 'linkLocal'],
    ['https://0.0.0.0', 'reserved'],
    ['https://169.254.169.254/latest/meta-data', 'metadata'],
    ['https://metadata.google.internal', 'metadata'],
    ['https://[fd00:ec2::254]', 'metadata'],
    ['https://key:secret@api.openai.com', 'credentials'],
  ])('%s → %s', (url, expected) => {
    expect(reason(url)).toBe(expected);
  });

  it('allows http, loopback and private addresses with private egress, but never link-local, reserved, metadata or credentials', () => {
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'http://10.0.4.12/v1',
      'http://localhost:1234',
      'http://[fd12::1]/',
    ]) {
      expect(reason(url, true), url).toBeUndefined();
    }
    expect(reason('https://[fe80::1]', true)).toBe('linkLocal');
    expect(reason('http://0.0.0.0/', true)).toBe('reserved');
    expect(reason('http://169.254.169.254/', true)).toBe('metadata');
    expect(reason('http://metadata.google.internal/', true)).toBe('metadata');
    expect(reason('http://u:p@10.0.0.1/', true)).toBe('credentials');
  });

  it('says why, and which setting would allow it', () => {
    expect(egressRefusalOf(new URL('https://10.0.0.1'), false)?.problem).toBe(
      'points at a private address (10.0.0.1); loopback and private addresses are allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true',
    );
  });
});
