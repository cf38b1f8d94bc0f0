import { describe, expect, it } from 'vitest';
import { readHiddenMarker, withHiddenMarker, withMarkerRead } from './hidden-marker.js';

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

const author = { externalUserId: '1', login: 'bot', displayName: 'Bot', isBot: true };

describe('reading markers out of a thread', () => {
  it('takes the first comment’s marker as the thread’s and strips markers from every body', () => {
    const thread = withMarkerRead({
      threadId: 't',
      status: 'open',
      comments: [
        { commentId: '1', author, createdAt: '', body: withHiddenMarker('Finding.', 'margin:fp=1', 'htmlComment') },
        { commentId: '2', author, createdAt: '', body: withHiddenMarker('Edited.', 'margin:x', 'linkDefinition') },
      ],
    });
    expect(thread.marker).toBe('margin:fp=1');
    expect(thread.comments.map((c) => c.body)).toEqual(['Finding.', 'Edited.']);
  });

  it('leaves a thread without a marker unmarked', () => {
    const thread = withMarkerRead({
      threadId: 't',
      status: 'open',
      comments: [{ commentId: '1', author, createdAt: '', body: 'Hi.' }],
    });
    expect(thread).not.toHaveProperty('marker');
  });
});
