import { MarginError, type ReviewThread, THREAD_MARKER_PATTERN } from '@margin/core/spec';

/**
 * How a Markdown comment body carries a thread's hidden marker (`CreateThreadInput.marker`):
 * - `htmlComment` — `<!-- margin-marker:… -->`, invisible on GitHub and GitLab;
 * - `linkDefinition` — `[margin-marker]: # (…)`, a link reference definition, which CommonMark
 *   renderers (Bitbucket's included, which escapes HTML) never show.
 * Reading accepts either, so a body edited on another renderer still gives its marker back.
 */
export type MarkerStyle = 'htmlComment' | 'linkDefinition';

const READ =
  /\n*(?:<!-- margin-marker:([A-Za-z0-9:=_.,-]{1,200}) -->|\[margin-marker\]: # \(([A-Za-z0-9:=_.,-]{1,200})\))\s*$/;

/** The body with the marker appended last, or the body alone without one. */
export function withHiddenMarker(body: string, marker: string | undefined, style: MarkerStyle): string {
  if (marker === undefined) return body;
  assertThreadMarker(marker);
  const hidden = style === 'htmlComment' ? `<!-- margin-marker:${marker} -->` : `[margin-marker]: # (${marker})`;
  return `${body.trimEnd()}\n\n${hidden}`;
}

/** Refuses a marker outside `THREAD_MARKER_PATTERN`, wherever a provider keeps it. */
export function assertThreadMarker(marker: string): void {
  if (!THREAD_MARKER_PATTERN.test(marker)) {
    throw MarginError.validation('A thread marker is 1–200 letters, digits or :=_.,- characters.');
  }
}

/** Splits a stored body into what readers see and the marker it carries, if any. */
export function readHiddenMarker(stored: string): { body: string; marker?: string | undefined } {
  const match = READ.exec(stored);
  if (!match) return { body: stored };
  return { body: stored.slice(0, match.index), marker: match[1] ?? match[2] };
}

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
