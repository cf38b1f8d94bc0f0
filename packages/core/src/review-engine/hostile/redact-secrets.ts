/**
 * Secret redaction by value, before any model, embedding, protocol event or log sees the text.
 * Values are replaced by typed, numbered markers (`⟦REDACTED:aws-access-key#1⟧`), the same value
 * getting the same number within a job, so a model can still reason about "the same key twice"
 * and the system prompt can explain the marker. Identifiers and environment-variable names are
 * never redacted: `process.env.GITHUB_TOKEN` is code, not a secret.
 */

export interface SecretHit {
  type: string;
}

interface Pattern {
  type: string;
  regex: RegExp;
  /** Capture group holding the value to replace; 0 = the whole match. */
  group: number;
  /** Extra test on the value (entropy), when the pattern alone would match ordinary code. */
  accept?: (value: string) => boolean;
}

const PATTERNS: Pattern[] = [
  { type: 'private-key', regex: /-----BEGIN [A-Z ]*PRIVATE KEY-----/g, group: 0 },
  { type: 'aws-access-key', regex: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, group: 0 },
  { type: 'github-token', regex: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, group: 0 },
  { type: 'github-token', regex: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g, group: 0 },
  { type: 'slack-token', regex: /\bxox[baprs]-[A-Za-z0-9-]{10,}\b/g, group: 0 },
  { type: 'stripe-key', regex: /\b[sr]k_live_[A-Za-z0-9]{16,}\b/g, group: 0 },
  { type: 'anthropic-key', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { type: 'openai-key', regex: /\bsk-(?!ant-)(?:proj-)?[A-Za-z0-9_-]{20,}/g, group: 0 },
  { type: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}\b/g, group: 0 },
  { type: 'npm-token', regex: /\bnpm_[A-Za-z0-9]{36}\b/g, group: 0 },
  { type: 'huggingface-token', regex: /\bhf_[A-Za-z0-9]{30,}\b/g, group: 0 },
  { type: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, group: 0 },
  { type: 'url-password', regex: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:([^\s@/'"]{3,})@/gi, group: 1 },
  {
    // `Key=Value;` connection strings (ADO.NET, Azure Storage, Service Bus, ODBC): the value is
    // unquoted and may be short, so the key must open a segment (after `;`, a quote or the line start).
    type: 'connection-string',
    regex:
      /(?:^|[;"'`])\s*(?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature|client_?secret)\s*=\s*([^;"'`\s]{3,})/gim,
    group: 1,
    // A placeholder (`${DB_PASSWORD}`, `%PASSWORD%`, `<password>`) is not a secret.
    accept: (v) => !/^[$%<{]/.test(v),
  },
  {
    type: 'auth-header',
    regex: /\b(?:Bearer|Basic)\s+([A-Za-z0-9._~+/-]{16,}=*)/g,
    group: 1,
    accept: (v) => entropy(v) > 3,
  },
  {
    type: 'assigned-secret',
    regex:
      /\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|credential|access[_-]?key|private[_-]?key)[A-Za-z0-9_.-]*["']?\s*(?::=|=|:)\s*["'`]([^"'`\s]{20,})["'`]/gi,
    group: 1,
    accept: (v) => entropy(v) > 3.5 && !v.includes('⟦REDACTED'),
  },
];

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const PEM_BODY = /^\s*[A-Za-z0-9+/=]{40,}\s*$/;
const PEM_END = /-----END [A-Z ]*PRIVATE KEY-----/;

/** One redactor per job: markers are numbered per type across everything the job reads. */
export class SecretRedactor {
  private readonly numbers = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  /** Inside a PEM block of the text being redacted line by line. */
  private inPem = false;

  /** Redacts one line (or a short text); says which kinds of secret it held. */
  redactLine(text: string): { text: string; hits: SecretHit[] } {
    const hits: SecretHit[] = [];
    if (this.inPem) {
      if (PEM_END.test(text)) this.inPem = false;
      if (PEM_BODY.test(text) || PEM_END.test(text)) {
        return { text: text.replace(/\S.*\S|\S/, this.marker('private-key', text.trim())), hits };
      }
      this.inPem = false;
    }
    let out = text;
    for (const pattern of PATTERNS) {
      pattern.regex.lastIndex = 0;
      out = out.replace(pattern.regex, (match: string, ...groups: unknown[]) => {
        const value = pattern.group === 0 ? match : String(groups[pattern.group - 1] ?? '');
        if (!value || (pattern.accept && !pattern.accept(value))) return match;
        hits.push({ type: pattern.type });
        if (pattern.type === 'private-key' && !PEM_END.test(text)) this.inPem = true;
        return match.replace(value, this.marker(pattern.type, value));
      });
    }
    return { text: out, hits };
  }

  /** Redacts a multi-line text (a PR description, a comment). */
  redactText(text: string): { text: string; hits: SecretHit[] } {
    const hits: SecretHit[] = [];
    const lines = text.split('\n').map((line) => {
      const r = this.redactLine(line);
      hits.push(...r.hits);
      return r.text;
    });
    this.inPem = false;
    return { text: lines.join('\n'), hits };
  }

  /** Ends a file: a PEM block never runs on into the next one. */
  endOfText(): void {
    this.inPem = false;
  }

  private marker(type: string, value: string): string {
    const known = this.numbers.get(`${type}\u0000${value}`);
    if (known) return known;
    const n = (this.counts.get(type) ?? 0) + 1;
    this.counts.set(type, n);
    const marker = `⟦REDACTED:${type}#${n}⟧`;
    this.numbers.set(`${type}\u0000${value}`, marker);
    return marker;
  }
}
