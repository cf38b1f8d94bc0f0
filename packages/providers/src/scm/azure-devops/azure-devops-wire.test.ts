import { describe, expect, it } from 'vitest';
import { relationOf } from './azure-devops-wire.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
const c = 'c'.repeat(40);

describe('the relation of two commits from diffs/commits', () => {
  it('reads the ahead and behind counts', () => {
    expect(relationOf({ aheadCount: 2, behindCount: 0, commonCommit: a }, a, b)).toBe('ahead');
    expect(relationOf({ aheadCount: 0, behindCount: 1, commonCommit: b }, a, b)).toBe('behind');
    expect(relationOf({ aheadCount: 1, behindCount: 1, commonCommit: c }, a, b)).toBe('diverged');
    expect(relationOf({ aheadCount: 0, behindCount: 0 }, a, b)).toBe('identical');
    expect(relationOf({}, a, a)).toBe('identical');
  });

  it('without counts, tells ahead or behind from the common commit and leaves anything else unknown', () => {
    expect(relationOf({ commonCommit: a }, a, b)).toBe('ahead');
    expect(relationOf({ commonCommit: b }, a, b)).toBe('behind');
    expect(relationOf({ commonCommit: c }, a, b)).toBe('unknown');
    expect(relationOf({}, a, b)).toBe('unknown');
  });
});
