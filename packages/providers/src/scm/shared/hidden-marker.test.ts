import { describe, expect, it } from 'vitest';
import { readHiddenMarker, withHiddenMarker } from './hidden-marker.js';

describe('hidden markers in Markdown bodies', () => {
  it.each(['htmlComment', 'linkDefinition'] as const)('round-trips a marker written as %s', (style) => {
    const stored = withHiddenMarker('Null dereference of `member`.\n', 'margin:fp=0a1b2c', style);
    expect(stored).toContain('margin:fp=0a1b2c');
    expect(readHiddenMarker(stored)).toEqual({ body: 'Null dereference of `member`.', marker: 'margin:fp=0a1b2c' });
  });

  it('leaves a body without a marker as it is', () => {
    expect(readHiddenMarker('plain <!-- a comment -->')).toEqual({ body: 'plain <!-- a comment -->' });
    expect(withHiddenMarker('plain', undefined, 'htmlComment')).toBe('plain');
  });

  it('refuses a marker that could break out of its comment', () => {
    expect(() => withHiddenMarker('x', 'a --> <img src=x>', 'htmlComment')).toThrow(/marker/);
  });
});
