/**
 * A deterministic look for prompt injection in untrusted text (title, description, added code,
 * comments). A hit is recorded and disclosed, and the review still runs: failing closed would let
 * anyone switch reviews off by writing "ignore previous instructions" in a pull request.
 */

const PHRASES: Array<{ name: string; regex: RegExp }> = [
  {
    name: 'ignore-instructions',
    regex:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:instructions|prompts|rules)/i,
  },
  { name: 'role-reassignment', regex: /\byou\s+are\s+now\b/i },
  { name: 'suppress-findings', regex: /\breport\s+(?:no|zero|0)\s+(?:issues|findings|problems|bugs)/i },
  { name: 'approve-request', regex: /\b(?:approve|lgtm)\s+this\s+(?:pr|pull\s+request|change|merge\s+request)/i },
  { name: 'fake-role-tag', regex: /\[INST\]|<\|im_start\|>|<\|system\|>|^\s*#{2,}\s*(?:System|Assistant)\s*:/im },
];

export interface InjectionHit {
  where: string;
  pattern: string;
}

/** Comment blocks longer than this in added code are suspicious on their own. */
const LONG_COMMENT_BLOCK = 2000;

export function scanForInjection(where: string, text: string): InjectionHit[] {
  const hits: InjectionHit[] = [];
  for (const phrase of PHRASES) if (phrase.regex.test(text)) hits.push({ where, pattern: phrase.name });
  return hits;
}

/** Runs of consecutive comment lines in added code, measured in characters. */
export function longCommentBlock(addedLines: readonly string[]): boolean {
  let run = 0;
  for (const line of addedLines) {
    if (/^\s*(?:\/\/|#|\*|\/\*|<!--|--)/.test(line)) {
      run += line.length;
      if (run > LONG_COMMENT_BLOCK) return true;
    } else run = 0;
  }
  return false;
}
