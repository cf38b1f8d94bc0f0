import { type AiConnectionConfig, MarginError, z } from '@margin/core/spec';
import { joinUrl } from '../../utils/index.js';
import { apiKeyOf, baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import type { AwsCredentials } from './sigv4.js';

/** An AWS region id: `us-east-1`, `eu-central-1`, `us-gov-west-1`. */
const AWS_REGION = '[a-z]{2}(?:-[a-z]+)+-\\d+';

/**
 * Bedrock's one setting, `region`. Optional, because a regional Bedrock URL names it (needing one
 * of the two is `bedrockConnectionOf`'s rule). It becomes part of the host the key is sent to, so
 * nothing but a region's shape passes.
 */
export const BEDROCK_SETTINGS = z.object({
  region: z
    .string()
    .regex(new RegExp(`^${AWS_REGION}$`), 'must be an AWS region such as us-east-1')
    .optional(),
});
export type BedrockSettings = z.output<typeof BEDROCK_SETTINGS>;

/**
 * How a Bedrock profile's key is read (the profile has one secret field):
 * - `ACCESS_KEY_ID:SECRET_ACCESS_KEY` or `ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN` → SigV4.
 *   Access key ids are upper-case letters and digits; secrets and session tokens are base64-like
 *   and never contain `:`, so the colon is unambiguous.
 * - anything else → a Bedrock API key, sent as `Authorization: Bearer` (long-term `ABSK…` keys
 *   and short-term `bedrock-api-key-…` tokens alike).
 */
export type BedrockAuth = { kind: 'sigv4'; credentials: AwsCredentials } | { kind: 'apiKey'; key: string };

const ACCESS_KEY_ID = /^[A-Z0-9]{16,128}$/;

export function bedrockAuthOf(key: string): BedrockAuth {
  const parts = key.split(':');
  const [accessKeyId = '', secretAccessKey = '', sessionToken] = parts;
  if ((parts.length === 2 || parts.length === 3) && ACCESS_KEY_ID.test(accessKeyId) && secretAccessKey) {
    return { kind: 'sigv4', credentials: { accessKeyId, secretAccessKey, sessionToken: sessionToken || undefined } };
  }
  return { kind: 'apiKey', key };
}

/** `bedrock-runtime.us-east-1.amazonaws.com`, FIPS and VPC-endpoint hosts name their region. */
const AWS_HOST = new RegExp(
  `(?:^|\\.)bedrock(?:-runtime)?(?:-fips)?\\.(${AWS_REGION})\\.(?:vpce\\.)?amazonaws\\.com$`,
  'i',
);

export interface BedrockConnection {
  region: string;
  /** Converse and InvokeModel. */
  runtimeRoot: string;
  /** ListFoundationModels, ListInferenceProfiles. */
  controlRoot: string;
  auth: BedrockAuth;
  query: Record<string, string>;
  headers: Record<string, string>;
  secrets: string[];
}

/**
 * Region: the `region` setting, else the one an AWS host names; required. `baseUrl` is the
 * runtime endpoint (empty: the public one for the region). The control plane is the same host with
 * `bedrock` for `bedrock-runtime`; any other host (a proxy, a private gateway) serves both.
 */
export function bedrockConnectionOf(connection: AiConnectionConfig<BedrockSettings>): BedrockConnection {
  const configured = connection.baseUrl?.trim() ? baseUrlOf(connection) : undefined;
  const region = connection.settings.region ?? (configured ? AWS_HOST.exec(configured.hostname)?.[1] : undefined);
  if (!region) {
    throw MarginError.validation(
      'AWS Bedrock needs a region: set defaultQueryParams.region (for example us-east-1) or use a regional Bedrock URL.',
      [{ path: 'defaultQueryParams.region', message: 'Required for kindCloudB.' }],
    );
  }
  const base = configured ?? new URL(`https://bedrock-runtime.${region}.amazonaws.com`);
  const runtimeRoot = joinUrl(`${base.origin}${pathOf(base)}`);
  const controlHost = base.hostname.replace(/(^|\.)bedrock-runtime(-fips)?\./i, '$1bedrock$2.');
  const control = new URL(base.href);
  control.hostname = controlHost;
  const key = apiKeyOf(connection, 'AWS Bedrock');
  const auth = bedrockAuthOf(key);
  return {
    region,
    runtimeRoot,
    controlRoot: joinUrl(`${control.origin}${pathOf(control)}`),
    auth,
    query: { ...connection.defaultQueryParams },
    headers: defaultHeadersOf(connection),
    secrets:
      auth.kind === 'sigv4' ? [auth.credentials.secretAccessKey, auth.credentials.sessionToken ?? '', key] : [auth.key],
  };
}
