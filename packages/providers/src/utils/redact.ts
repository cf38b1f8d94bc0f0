const MAX_MESSAGE = 300;

/** Credential-looking strings that must never reach a message, whoever's they are. */
const CREDENTIAL_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b((?:Bearer|Basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]'],
  [/\b(?:sk|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xoxb|AKIA|ASIA)[-_A-Za-z0-9]{8,}/g, '[redacted]'],
  [/([?&](?:api-key|key|access_token|token|sig|signature|code)=)[^&\s]+/gi, '$1[redacted]'],
];

/** Shorter runs of a secret's characters are too common to tell apart from ordinary text. */
const MIN_FRAGMENT = 8;

/**
 * Replaces every known secret value, any part of one of at least 8 characters in a row, the Basic-auth
 * (base64) forms of one and their parts, and anything shaped like a credential with `[redacted]`. A
 * provider can echo the credential it was sent in any form (split, truncated, the raw header), and
 * whatever stays recognisable would reach an error body or a log line.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const covered = new Uint8Array(text.length);
  const cover = (part: string) => {
    for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) covered.fill(1, at, at + part.length);
  };
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    const base64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
    for (const form of [secret, base64(secret), base64(`:${secret}`)]) {
      cover(form);
      for (let i = 0; i + MIN_FRAGMENT <= form.length; i++) {
        const fragment = form.slice(i, i + MIN_FRAGMENT);
        if (fragment.trim().length === MIN_FRAGMENT) cover(fragment);
      }
    }
  }
  let out = '';
  for (let i = 0; i < text.length; ) {
    if (!covered[i]) {
      out += text[i++];
      continue;
    }
    while (i < text.length && covered[i]) i++;
    out += '[redacted]';
  }
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * The provider's own explanation from an error body, whatever its shape: `message`, `error.message`,
 * `error_description`, `errors[0].message`, a string `error`, or plain text. Trimmed to one line.
 */
export function providerMessage(body: unknown): string | undefined {
  const found = pick(body);
  if (!found) return undefined;
  const line = found.replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

function pick(body: unknown): string | undefined {
  if (typeof body === 'string') return body.startsWith('<') ? undefined : body; // skip HTML error pages
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'errorMessage', 'detail', 'title']) {
    if (typeof b[key] === 'string' && b[key]) return b[key] as string;
  }
  if (typeof b.error === 'string') return b.error;
  if (typeof b.error === 'object' && b.error !== null) return pick(b.error);
  if (Array.isArray(b.errors) && b.errors.length > 0) return pick(b.errors[0]);
  if (typeof b.Message === 'string') return b.Message;
  return undefined;
}
