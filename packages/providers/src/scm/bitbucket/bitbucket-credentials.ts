/**
 * How the connection's `secret` becomes an `Authorization` header. Bitbucket Cloud takes two kinds of
 * credential (app passwords are switched off on 2026-06-09):
 *
 * - an Atlassian API token, sent as Basic `email:token`: the secret is entered as `email:token`;
 * - a repository, project or workspace access token, sent as Bearer: the secret is the token alone.
 *
 * Neither token kind contains a colon, and an e-mail address never does either, so a colon with text
 * on both sides marks the Basic form. A legacy `username:app_password` also takes the Basic path.
 */
export type BitbucketCredentialKind = 'apiToken' | 'accessToken';

export interface BitbucketCredential {
  kind: BitbucketCredentialKind;
  authorization: string;
  /** Every form of the credential that could end up in text, for redaction. */
  secrets: string[];
}

export function bitbucketCredential(secret: string): BitbucketCredential {
  const value = secret.trim();
  const colon = value.indexOf(':');
  if (colon > 0 && colon < value.length - 1 && !/\s/.test(value.slice(0, colon))) {
    const encoded = Buffer.from(value, 'utf8').toString('base64');
    return { kind: 'apiToken', authorization: `Basic ${encoded}`, secrets: [value, value.slice(colon + 1), encoded] };
  }
  return { kind: 'accessToken', authorization: `Bearer ${value}`, secrets: [value] };
}
