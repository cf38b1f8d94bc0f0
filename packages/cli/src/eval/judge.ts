import type { AiModelV1 } from '@margin/core/spec';

export const JUDGE_SYSTEM_PROMPT = `You judge a code review. You are given an issue that a careful human reviewer expected to be reported about a change, and one finding an automated reviewer reported at the same place. Decide whether the finding describes the same underlying issue (the same defect, even if worded differently or with a different fix). A finding about a different problem at the same lines is not a match. Answer only JSON: {"match": true|false, "why": "one sentence"}.`;

/**
 * The optional judge: does a finding that the deterministic matcher paired with an expected one
 * (same file, overlapping lines, compatible category) describe the same issue? A judge that cannot
 * be read counts as "no": an unproven match must not raise the score.
 */
export async function judgeMatch(
  judge: AiModelV1,
  expected: { description: string; category: string },
  finding: { title: string; message: string; category: string },
): Promise<boolean> {
  const result = await judge.chat({
    system: JUDGE_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: [
          `Expected issue (${expected.category}): ${expected.description}`,
          `Reported finding (${finding.category}): ${finding.title} — ${finding.message}`,
        ].join('\n'),
      },
    ],
    temperature: 0,
    maxOutputTokens: 200,
  });
  const match = /"match"\s*:\s*(true|false)/.exec(result.text);
  return match?.[1] === 'true';
}
