import type { MarginClient } from '@margin/sdk-client';
import { ProvisioningError, type ProvisionOptions } from './provision-options.js';
import { allItems, type Steps } from './steps.js';

/**
 * The client's connection to this host, created when missing and verified until it is. An existing
 * connection is left as it is: its secret cannot be read back to compare, so rotating it is a
 * deliberate `scm.patchProviderConnection`, not a side effect of provisioning.
 */
export async function ensureScmConnection(
  margin: MarginClient,
  clientId: string,
  options: ProvisionOptions['sourceControl'],
  steps: Steps,
): Promise<string> {
  const host = hostKey(options.hostBaseUrl);
  const connections = await allItems((cursor) => margin.scm.listProviderConnections(clientId, { limit: 200, cursor }));
  let connection = connections.find(
    (c) => c.providerFamily === options.providerFamily && hostKey(c.hostBaseUrl) === host,
  );
  if (connection) {
    steps.record(
      'source-control connection',
      connection.id,
      'unchanged',
      `${options.providerFamily} at ${connection.hostBaseUrl} exists`,
    );
  } else {
    connection = await margin.scm.createProviderConnection(clientId, {
      providerFamily: options.providerFamily,
      authenticationKind: options.authenticationKind ?? 'personalAccessToken',
      hostBaseUrl: options.hostBaseUrl,
      secret: options.secret,
      displayName: options.displayName,
    });
    steps.record(
      'source-control connection',
      connection.id,
      'created',
      `${options.providerFamily} at ${connection.hostBaseUrl}`,
    );
  }

  if (connection.verificationStatus === 'verified') {
    steps.record('source-control verification', connection.id, 'unchanged', 'already verified');
    return connection.id;
  }
  // A provider's refusal is an answer (200, `failed`), not an error: stop here and say why.
  const verified = await margin.scm.verifyProviderConnection(clientId, connection.id);
  if (verified.verificationStatus !== 'verified') {
    throw new ProvisioningError(
      'source-control connection',
      `The ${options.providerFamily} connection failed verification (${verified.lastVerificationFailureCategory ?? 'unknown'}): ${verified.lastVerificationError ?? 'no reason given'}`,
    );
  }
  steps.record('source-control verification', connection.id, 'changed', 'verified');
  return connection.id;
}

/** Margin stores hosts normalised and compares them ignoring case and a trailing slash; so does this. */
function hostKey(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`.toLowerCase();
}
