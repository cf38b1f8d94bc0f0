import { describe, expect, it } from 'vitest';
import { relationFromMergeBase, sameCommit } from './commit-relation.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
const c = 'c'.repeat(40);

describe('the relation of two commits from their merge base', () => {
  it('is identical for one commit, ahead when the old head is the merge base, behind the other way round', () => {
    expect(relationFromMergeBase(a, a, a)).toBe('identical');
    expect(relationFromMergeBase(a, c, a)).toBe('ahead');
    expect(relationFromMergeBase(c, a, a)).toBe('behind');
  });

  it('is diverged when the merge base is a third commit, or when there is none', () => {
    expect(relationFromMergeBase(a, c, b)).toBe('diverged');
    expect(relationFromMergeBase(a, c, null)).toBe('diverged');
  });

  it('matches an abbreviated SHA of seven or more characters, and nothing shorter', () => {
    expect(relationFromMergeBase(a, c, a.slice(0, 12).toUpperCase())).toBe('ahead');
    expect(sameCommit(a, a.slice(0, 6))).toBe(false);
  });
});
