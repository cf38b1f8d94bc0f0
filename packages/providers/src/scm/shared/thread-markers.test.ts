import { describe, expect, it } from 'vitest';
import { withHiddenMarker } from './hidden-marker.js';
import { withMarkerRead } from './thread-markers.js';

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
