import { type AiConnectionConfig, MarginError, z } from '@margin/core/spec';
import { joinUrl } from '../../utils/index.js';
import { apiKeyOf, baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import { parseServiceAccountKey, type ServiceAccountKey } from './google-service-account.js';

/**
 * Vertex's settings. `project`: a Google Cloud project id (`my-project-123`), a domain-scoped one
 * (`example.com:my-project`) or a project number; optional (express mode, or the service account's
 * own). `location`: `us-central1`, `europe-west4`, `global`; optional (the host names it, else
 * `global`). The location becomes part of the host the credential is sent to, so both take only
 * their own shape.
 */
export const VERTEX_SETTINGS = z.object({
  project: z
    .string()
    .regex(
      /^(?:(?:[a-z0-9-]+\.)+[a-z]{2,}:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$|^\d{1,20}$/,
      'must be a Google Cloud project id such as my-project-123, or a project number',
    )
    .optional(),
  location: z
    .string()
    .regex(/^[a-z]+(?:-[a-z]+\d*)*$/, 'must be a Vertex AI location such as us-central1, europe-west4 or global')
    .optional(),
});
export type VertexSettings = z.output<typeof VERTEX_SETTINGS>;

/**
 * The profile's key is either a service-account key file's JSON (has `client_email` and
 * `private_key`: OAuth via our own JWT-bearer exchange) or an API key (`x-goog-api-key`).
 */
export type GoogleAuth = { kind: 'apiKey'; key: string } | { kind: 'serviceAccount'; account: ServiceAccountKey };

/**
 * - `vertex`: `https://{location}-aiplatform.googleapis.com` (or `aiplatform.googleapis.com` for
 *   `global`); paths under `projects/{project}/locations/{location}`, or the project-less express
 *   mode paths when an API key comes without a project.
 * - `geminiApi`: the Gemini Developer API at `generativelanguage.googleapis.com` (API key only).
 */
export interface VertexConnection {
  flavor: 'vertex' | 'geminiApi';
  root: string;
  location: string;
  project: string | undefined;
  auth: GoogleAuth;
  query: Record<string, string>;
  headers: Record<string, string>;
  secrets: string[];
}

const REGIONAL_HOST = /^([a-z0-9-]+)-aiplatform\.googleapis\.com$/i;

export function vertexConnectionOf(connection: AiConnectionConfig<VertexSettings>): VertexConnection {
  const key = apiKeyOf(connection, 'Google Vertex AI');
  const account = parseServiceAccountKey(key);
  const auth: GoogleAuth = account ? { kind: 'serviceAccount', account } : { kind: 'apiKey', key };
  const locationSetting = connection.settings.location;
  const fallback =
    locationSetting && locationSetting !== 'global'
      ? `https://${locationSetting}-aiplatform.googleapis.com`
      : 'https://aiplatform.googleapis.com';
  const base = baseUrlOf(connection, fallback);
  const host = base.hostname.toLowerCase();
  const flavor = host === 'generativelanguage.googleapis.com' ? 'geminiApi' : 'vertex';
  // The host names the location; other hosts (private endpoints, proxies) take the setting.
  const location =
    REGIONAL_HOST.exec(host)?.[1] ?? (host === 'aiplatform.googleapis.com' ? 'global' : (locationSetting ?? 'global'));
  const project = connection.settings.project ?? account?.projectId;
  if (flavor === 'geminiApi' && auth.kind !== 'apiKey') {
    throw MarginError.validation(
      'The Gemini Developer API (generativelanguage.googleapis.com) takes an API key, not a service account.',
      [{ path: 'auth.apiKey', message: 'Use a Gemini API key.' }],
    );
  }
  if (flavor === 'vertex' && auth.kind === 'serviceAccount' && !project) {
    throw MarginError.validation('Google Vertex AI needs a project: set defaultQueryParams.project.', [
      { path: 'defaultQueryParams.project', message: 'Required for kindCloudC with a service account.' },
    ]);
  }
  return {
    flavor,
    root: joinUrl(`${base.origin}${pathOf(base)}`),
    location,
    project,
    auth,
    query: { ...connection.defaultQueryParams },
    headers: defaultHeadersOf(connection),
    secrets: auth.kind === 'apiKey' ? [auth.key] : [auth.account.privateKey, key],
  };
}

/** `gemini-2.5-pro`, also when given as `models/…` or `publishers/google/models/…`. */
export function bareModelId(remoteModelId: string): string {
  return remoteModelId.replace(/^(?:publishers\/[^/]+\/)?models\//, '');
}

/** The URL of a model method (`generateContent`, `predict`, …) for this connection. */
export function modelMethodUrl(connection: VertexConnection, remoteModelId: string, method: string): string {
  const model = `${encodeURIComponent(bareModelId(remoteModelId))}:${method}`;
  if (connection.flavor === 'geminiApi') return joinUrl(connection.root, 'v1beta/models', model);
  if (!connection.project) return joinUrl(connection.root, 'v1/publishers/google/models', model);
  return joinUrl(
    connection.root,
    'v1/projects',
    encodeURIComponent(connection.project),
    'locations',
    encodeURIComponent(connection.location),
    'publishers/google/models',
    model,
  );
}
