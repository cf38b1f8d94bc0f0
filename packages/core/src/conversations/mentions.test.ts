import { describe, expect, it } from 'vitest';
import { findMention } from './mentions.js';

const margin = { login: 'margin-review', externalUserId: '6f2a1c3e-0b4d-4e5f-9a8b-7c6d5e4f3a2b' };

describe('findMention', () => {
  it('reads the first word after the handle as a command', () => {
    expect(findMention('@margin-review review', margin)).toEqual({ command: 'review', question: null });
    expect(findMention('Hey @Margin-Review, PAUSE please', margin)).toEqual({ command: 'pause', question: null });
    expect(findMention('@margin-review[bot] resume.', margin)).toEqual({ command: 'resume', question: null });
    expect(findMention('@margin-review help', margin)).toEqual({ command: 'help', question: null });
  });

  it('takes anything else as a question, kept whole', () => {
    const body = 'Why 250 here?\n@margin-review is this safe under load?';
    expect(findMention(body, margin)).toEqual({ command: null, question: body });
    expect(findMention('@margin-review reviewing this, is the retry right?', margin)?.command).toBeNull();
  });

  it('reads the id forms Azure DevOps and Bitbucket write', () => {
    expect(findMention('@<6F2A1C3E-0B4D-4E5F-9A8B-7C6D5E4F3A2B> review', margin)?.command).toBe('review');
    expect(findMention('@{6f2a1c3e-0b4d-4e5f-9a8b-7c6d5e4f3a2b} why?', margin)?.question).toContain('why?');
    expect(findMention('@<{6f2a1c3e-0b4d-4e5f-9a8b-7c6d5e4f3a2b}> help', margin)?.command).toBe('help');
  });

  it('ignores mentions in quoted lines, code spans, code blocks and HTML comments', () => {
    expect(findMention('> @margin-review review\n\nThanks!', margin)).toBeUndefined();
    expect(findMention('Use `@margin-review review` to ask for a review.', margin)).toBeUndefined();
    expect(findMention('```\n@margin-review review\n```', margin)).toBeUndefined();
    expect(findMention('~~~md\n@margin-review help\n~~~\n', margin)).toBeUndefined();
    expect(findMention('<!-- @margin-review review -->', margin)).toBeUndefined();
  });

  it('ignores other handles, addresses and Margin’s own marked comments', () => {
    expect(findMention('@margin-reviewer review', margin)).toBeUndefined();
    expect(findMention('mail bot@margin-review.dev', margin)).toBeUndefined();
    expect(findMention('@margin-review review\n<!-- margin-marker:conversation:1 -->', margin)).toBeUndefined();
  });
});
