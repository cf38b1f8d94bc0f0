/**
 * Whether a person's reply on one of Margin's threads rejects the finding, by the words people use
 * for it. This is the fallback when no `memoryReconsideration` model is mapped: it errs towards
 * "not a rejection" (a phrase must be there), because a wrong rejection silences a finding for the
 * whole repository while a missed one only costs a repeated comment.
 */
const REJECTING_PHRASES: readonly RegExp[] = [
  /\bfalse[\s-]+(positive|alarm)s?\b/,
  /\bwon'?t\s+fix\b/,
  /\bwill\s+not\s+fix\b/,
  /\bwontfix\b/,
  /\bnot\s+(an?\s+)?(issue|bug|problem|concern)\b/,
  /\bno(t\s+a)?\s+real\s+(issue|bug|problem)\b/,
  /\bby\s+design\b/,
  /\b(it|this|that)('s|\s+is|\s+was)\s+(intended|intentional|deliberate|expected|on\s+purpose)\b/,
  /\b(intended|intentional|deliberate|expected)\s+behaviou?r\b/,
  /\bworks\s+as\s+(intended|designed|expected)\b/,
  /\b(this|that|the\s+finding|the\s+comment)\s+is\s+(wrong|incorrect|invalid|irrelevant)\b/,
  /\bnot\s+applicable\b/,
  /\b(ignore|dismiss)\s+(this|it)\b/,
  /\bcan(not|'t)\s+happen\b/,
  /\bnot\s+reachable\b/,
];

/** A negation right before the phrase turns it around: "this is not by design". */
const NEGATED = /\b(not|isn'?t|wasn'?t|never|no)\s+(an?\s+|the\s+)?$/;

export function replyRejects(text: string): boolean {
  const said = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/^>.*$/gm, ' ') // quoted lines are someone else's words
    .replace(/`[^`]*`/g, ' ')
    .replace(/\s+/g, ' ');
  for (const phrase of REJECTING_PHRASES) {
    const m = phrase.exec(said);
    if (!m) continue;
    const before = said.slice(Math.max(0, m.index - 12), m.index);
    // "not an issue" carries its own "not"; elsewhere a "not" just before turns the phrase around.
    if (!m[0].startsWith('not') && !m[0].startsWith('no') && NEGATED.test(before)) continue;
    return true;
  }
  return false;
}
