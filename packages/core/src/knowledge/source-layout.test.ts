import { describe, expect, it } from 'vitest';
import { wikiPagePath } from './source-layout.js';

describe('wiki page paths', () => {
  it('decodes Azure DevOps page file names: - is a space, percent-encoding for the rest', () => {
    expect(wikiPagePath('Home.md')).toBe('/Home');
    expect(wikiPagePath('Team/Getting-Started.md')).toBe('/Team/Getting Started');
    expect(wikiPagePath('Team/Set%2Dup-guide.md')).toBe('/Team/Set-up guide');
    expect(wikiPagePath('FAQ%3F/Why-%22quotes%22%3A-a-story.md')).toBe('/FAQ?/Why "quotes": a story');
    // A name that is not valid percent-encoding is shown as written, spaces restored.
    expect(wikiPagePath('100%-done.md')).toBe('/100% done');
  });
});
