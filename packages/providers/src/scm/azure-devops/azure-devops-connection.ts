import {
  MarginError,
  type PullRequestRef,
  type RepositoryRef,
  type ScmAccount,
  type ScmConnectionConfig,
  type ScmScopeRef,
} from '@margin/core/spec';
import { readString, rememberOnce } from '../../utils/index.js';
import { AzureDevOpsClient } from './azure-devops-client.js';
import type { AzureDevOpsOptions } from './azure-devops-options.js';

export type Signal = AbortSignal | undefined;
/** Page size for `$top`/`$skip` and continuation-token lists. */
export const PAGE = 100;

/** The account the credentials act as, with the id comments carry as `author.id`. */
export type AdoAccount = ScmAccount & { id: string | undefined };

/**
 * What every part of the Azure DevOps provider shares: one client, and the identity its credentials
 * act as (looked up once when first needed, or set by `verify`).
 */
export interface AzureDevOpsConnection {
  readonly client: AzureDevOpsClient;
  readonly connectionUser: { get(): Promise<AdoAccount>; set(account: AdoAccount): void };
}

export function connectAzureDevOps(config: ScmConnectionConfig, options: AzureDevOpsOptions): AzureDevOpsConnection {
  const client = new AzureDevOpsClient(config, options);
  /** The identity the credentials act as (`connectionData`), to tell this connection's threads from others'. */
  const connectionUser = rememberOnce(async () =>
    accountOf(
      (await client.request<unknown>({ url: `${client.hostBaseUrl}/_apis/connectionData`, unversioned: true })).data,
    ),
  );
  return { client, connectionUser };
}

/** The port's `verify`: proves the credentials and remembers whom they act as. */
export async function verifyAzureDevOpsAccount(ado: AzureDevOpsConnection, signal: Signal): Promise<ScmAccount> {
  // Unversioned, cheap, and it names whoever the credentials act as.
  const { data } = await ado.client.request<unknown>({
    url: `${ado.client.hostBaseUrl}/_apis/connectionData`,
    unversioned: true,
    signal,
  });
  const account = accountOf(data);
  ado.connectionUser.set(account);
  return { login: account.login, displayName: account.displayName };
}

/** A GET's JSON body. */
export async function getJson<T>(
  ado: AzureDevOpsConnection,
  url: string,
  signal: Signal,
  query?: Record<string, string | number | undefined>,
): Promise<T> {
  return (await ado.client.request<T>({ url, query, signal })).data;
}

export function projectUrl(ado: AzureDevOpsConnection, scope: ScmScopeRef): string {
  return `${ado.client.organizationUrl(scope.scopePath)}/${encodeURIComponent(scope.projectKey)}`;
}

export function repositoryUrl(ado: AzureDevOpsConnection, ref: RepositoryRef): string {
  return `${projectUrl(ado, ref)}/_apis/git/repositories/${encodeURIComponent(ref.repositoryId)}`;
}

export function pullRequestUrl(ado: AzureDevOpsConnection, ref: PullRequestRef): string {
  return `${repositoryUrl(ado, ref)}/pullRequests/${ref.pullRequestId}`;
}

/**
 * `connectionData.authenticatedUser`: the account name is in `properties.Account.$value`; its `id` is
 * the one comments carry as `author.id`.
 */
function accountOf(data: unknown): AdoAccount {
  const id = readString(data, 'authenticatedUser', 'id');
  const displayName =
    readString(data, 'authenticatedUser', 'customDisplayName') ??
    readString(data, 'authenticatedUser', 'providerDisplayName');
  const login = readString(data, 'authenticatedUser', 'properties', 'Account', '$value') ?? displayName ?? id;
  if (!login) throw MarginError.provider('invalidResponse', 'Azure DevOps connectionData named no user.');
  return { id, login, displayName: displayName ?? login };
}
