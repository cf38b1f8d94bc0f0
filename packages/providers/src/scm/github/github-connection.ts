import {
  MarginError,
  type PullRequestRef,
  type RepositoryRef,
  type ScmAccount,
  type ScmConnectionConfig,
} from '@margin/core/spec';
import { rememberOnce } from '../../utils/index.js';
import { GitHubClient } from './github-client.js';
import type { GitHubOptions } from './github-options.js';
import type { GhUser } from './github-wire.js';

export type Signal = AbortSignal | undefined;

/**
 * What every part of the GitHub provider shares: one client, the connection it was opened with, and
 * the account its credentials act as (looked up once when first needed, or set by `verify`).
 */
export interface GitHubConnection {
  readonly client: GitHubClient;
  readonly config: ScmConnectionConfig;
  readonly account: { get(): Promise<ScmAccount>; set(account: ScmAccount): void };
}

type GhApp = { slug?: string; name?: string };

export function connectGitHub(config: ScmConnectionConfig, options: GitHubOptions): GitHubConnection {
  const client = new GitHubClient(config, options);
  /** Who the credentials act as: the PAT's user, or the App's `<slug>[bot]`. */
  const account = rememberOnce(async (): Promise<ScmAccount> => {
    if (client.isApp) return appAccount(await client.asApp<GhApp>('/app'));
    const { data } = await client.rest<GhUser>({ path: '/user' });
    return userAccount(data);
  });
  return { client, config, account };
}

/** The port's `verify`: proves the credentials and remembers whom they act as. */
export async function verifyGitHubAccount(github: GitHubConnection, signal: Signal): Promise<ScmAccount> {
  const { client } = github;
  let verified: ScmAccount;
  if (client.isApp) {
    // Minting an installation token proves key, App id and installation; `/user` is not for Apps.
    await client.rest({ path: '/installation/repositories', query: { per_page: 1 }, signal });
    verified = appAccount(await client.asApp<GhApp>('/app', signal));
  } else {
    const { data } = await client.rest<GhUser>({ path: '/user', signal });
    verified = userAccount(data);
  }
  github.account.set(verified);
  return verified;
}

function appAccount(app: GhApp): ScmAccount {
  const login = `${app.slug ?? 'app'}[bot]`;
  return { login, displayName: app.name ?? login };
}

function userAccount(user: GhUser): ScmAccount {
  return { login: user.login, displayName: user.name ?? user.login };
}

/** Repositories are addressed by numeric id, so a renamed or transferred repository keeps working. */
export function repositoryPath(ref: RepositoryRef): string {
  if (!/^\d+$/.test(ref.repositoryId)) {
    throw MarginError.validation('A GitHub repository id is the numeric repository id, as a string.');
  }
  return `/repositories/${ref.repositoryId}`;
}

export function pullRequestPath(ref: PullRequestRef): string {
  return `${repositoryPath(ref)}/pulls/${ref.pullRequestId}`;
}
