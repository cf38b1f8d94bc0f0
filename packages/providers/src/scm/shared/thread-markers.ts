import type { ReviewThread } from '@margin/core';
import { readHiddenMarker } from './hidden-marker.js';

/**
 * A thread as read from the provider, with the hidden marker taken out of every comment body and
 * the first comment's marker (the one the thread was created with) set as the thread's.
 */
export function withMarkerRead(thread: ReviewThread): ReviewThread {
  let marker: string | undefined;
  const comments = thread.comments.map((comment, i) => {
    const read = readHiddenMarker(comment.body);
    if (i === 0) marker = read.marker;
    return read.marker === undefined ? comment : { ...comment, body: read.body };
  });
  return marker === undefined ? { ...thread, comments } : { ...thread, comments, marker };
}
