/** The words a mention may start with; anything else makes the comment a question. */
export const MENTION_COMMANDS = ['review', 'pause', 'resume', 'help'] as const;
export type MentionCommand = (typeof MENTION_COMMANDS)[number];

/** Who Margin is on the provider: the connection's reviewer identity. */
export interface MentionedIdentity {
  login: string;
  externalUserId: string;
}

export interface Mention {
  /** The first word after the handle when it is a command, else null (a question). */
  command: MentionCommand | null;
  /** For a question: what was asked, quotes and code left as written. */
  question: string | null;
}

/** Margin's hidden marker (`margin-marker:` in a Markdown body): a body carrying it is Margin's own. */
const HIDDEN_MARKER = /margin-marker/;
const MAX_QUESTION = 4000;

/**
 * Reads a comment for a mention of Margin's identity: `@login` (also `@login[bot]`), or the id
 * forms providers write into the body: Azure DevOps `@<identity id>`, Bitbucket `@{account id}`.
 * Mentions in quoted lines (`>`), in code spans and blocks and in HTML comments do not count: a
 * reply that quotes a question must not be answered again, and code is not addressed to anyone.
 * Margin's own comments (its marker) are never read as mentions.
 */
export function findMention(body: string, identity: MentionedIdentity): Mention | undefined {
  if (HIDDEN_MARKER.test(body)) return undefined;
  const prose = proseOf(body);
  const handle = handlePattern(identity);
  if (!handle) return undefined;
  const match = handle.exec(prose);
  if (!match) return undefined;
  const after = prose.slice(match.index + match[0].length);
  const word = /^[\s,:;-]*([A-Za-z]+)(?=$|[\s.!?,:;])/.exec(after)?.[1]?.toLowerCase();
  const command = MENTION_COMMANDS.find((c) => c === word) ?? null;
  if (command) return { command, question: null };
  return { command: null, question: body.trim().slice(0, MAX_QUESTION) };
}

/**
 * The body with what is not addressed to anyone blanked out: fenced code blocks (``` and ~~~),
 * quoted lines, HTML comments and inline code spans.
 */
export function proseOf(body: string): string {
  const lines = body.replace(/<!--[\s\S]*?-->/g, ' ').split(/\r?\n/);
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener)
        fence = undefined;
      kept.push('');
      continue;
    }
    if (opener) {
      fence = opener;
      kept.push('');
      continue;
    }
    if (/^ {0,3}>/.test(line)) {
      kept.push('');
      continue;
    }
    kept.push(line.replace(/(`+)[^`]*?\1/g, ' '));
  }
  return kept.join('\n');
}

function handlePattern(identity: MentionedIdentity): RegExp | undefined {
  const forms: string[] = [];
  const login = identity.login.replace(/\[bot\]$/i, '').trim();
  if (login) forms.push(`${escapeRegExp(login)}(?:\\[bot\\])?(?![\\w-]|\\.\\w)`);
  const id = identity.externalUserId.replace(/^\{|\}$/g, '').trim();
  if (id) forms.push(`<\\{?${escapeRegExp(id)}\\}?>`, `\\{${escapeRegExp(id)}\\}`);
  if (forms.length === 0) return undefined;
  // Not inside a word or an address: `me@margin.dev` mentions nobody.
  return new RegExp(`(?<![\\w@/.-])@(?:${forms.join('|')})`, 'i');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
