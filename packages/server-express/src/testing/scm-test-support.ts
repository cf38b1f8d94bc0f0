/**
 * Test support for the SCM route tests: the four provider fakes from `@margin/providers/testing` on
 * loopback sockets, a provider registry pointed at them, and connection bodies that reach them.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { RegistryBase } from '@margin/cli';
import type { ProviderRegistry } from '@margin/core/spec';
import { createProviderRegistry } from '@margin/providers';
import {
  ADO_ORG,
  type AzureDevOpsFake,
  BITBUCKET_ACCESS_TOKEN,
  type BitbucketFake,
  GITLAB_TOKEN,
  type GitHubFake,
  type GitLabFake,
  startAzureDevOpsFake,
  startBitbucketFake,
  startGitHubFake,
  startGitLabFake,
} from '@margin/providers/testing';

/** Distinctive secrets, so a leak into a response or log line is easy to find. */
export const SECRETS = {
  gitlab: GITLAB_TOKEN,
  github: 'ghp_canaryGitHubPat7f3a9c1e5b2d8f4a6c0e',
  adoPat: 'canary-ado-pat-4e8b2a6c0d1f3e5a7b9c',
  adoClientSecret: 'canary-entra-client-secret-9d7b5f3a1c',
  bitbucket: BITBUCKET_ACCESS_TOKEN,
};
export const GITHUB_APP = { id: 424_242, installationId: 31_415_926 };

export interface ScmFakes {
  gitlab: GitLabFake;
  github: GitHubFake;
  ado: AzureDevOpsFake;
  bitbucket: BitbucketFake;
  /** The GitHub App's private key (PEM), the secret of an `appInstallation` connection. */
  githubAppKey: string;
  /** Every built-in adapter, reaching the fakes. */
  providers: ProviderRegistry;
  /** What a host needs to build its own registry that reaches the fakes (`startTestHost({ registryBase })`). */
  registryBase: RegistryBase;
  /** Connection bodies per family and kind, valid against the fakes; spread overrides over them. */
  bodies: {
    gitlab(overrides?: Record<string, unknown>): Record<string, unknown>;
    github(overrides?: Record<string, unknown>): Record<string, unknown>;
    githubApp(overrides?: Record<string, unknown>): Record<string, unknown>;
    adoPat(overrides?: Record<string, unknown>): Record<string, unknown>;
    adoEntra(overrides?: Record<string, unknown>): Record<string, unknown>;
    bitbucket(overrides?: Record<string, unknown>): Record<string, unknown>;
  };
  /** Scope paths holding the fakes' scenario. */
  scopePaths: { gitlab: string; github: string; ado: string; bitbucket: string };
  close(): Promise<void>;
}

/** `allowPrivateEgress` lets the registry's AI adapters reach loopback fakes too (reviews end to end). */
export async function startScmFakes(options: { allowPrivateEgress?: boolean } = {}): Promise<ScmFakes> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const githubAppKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const [gitlab, github, ado, bitbucket] = await Promise.all([
    startGitLabFake(),
    startGitHubFake({
      pat: SECRETS.github,
      app: { ...GITHUB_APP, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    }),
    startAzureDevOpsFake({ pat: SECRETS.adoPat, clientSecret: SECRETS.adoClientSecret }),
    startBitbucketFake(),
  ]);
  const registryBase: RegistryBase = { entraAuthorityUrl: ado.server.url, bitbucketApiBaseUrl: bitbucket.apiBaseUrl };
  const providers = createProviderRegistry({ ...registryBase, allowPrivateEgress: options.allowPrivateEgress });
  const body =
    (base: Record<string, unknown>) =>
    (overrides: Record<string, unknown> = {}) => ({ ...base, ...overrides });
  return {
    gitlab,
    github,
    ado,
    bitbucket,
    githubAppKey,
    providers,
    registryBase,
    bodies: {
      gitlab: body({
        providerFamily: 'gitHostB',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: gitlab.hostBaseUrl,
        displayName: 'GitLab',
        secret: SECRETS.gitlab,
      }),
      github: body({
        providerFamily: 'gitHostA',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: github.hostUrl,
        displayName: 'GitHub',
        secret: SECRETS.github,
      }),
      githubApp: body({
        providerFamily: 'gitHostA',
        authenticationKind: 'appInstallation',
        hostBaseUrl: github.hostUrl,
        displayName: 'GitHub App',
        secret: githubAppKey,
        hostedAppId: GITHUB_APP.id,
        hostedAppInstallationId: GITHUB_APP.installationId,
      }),
      adoPat: body({
        providerFamily: 'suiteDevOps',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: ado.orgUrl,
        displayName: 'Azure DevOps',
        secret: SECRETS.adoPat,
      }),
      adoEntra: body({
        providerFamily: 'suiteDevOps',
        authenticationKind: 'oauthClientCredentials',
        hostBaseUrl: ado.orgUrl,
        displayName: 'Azure DevOps (Entra)',
        secret: SECRETS.adoClientSecret,
        oAuthTenantId: 'contoso-tenant',
        oAuthClientId: 'margin-app',
      }),
      bitbucket: body({
        providerFamily: 'gitHostC',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: 'https://bitbucket.org',
        displayName: 'Bitbucket',
        secret: SECRETS.bitbucket,
      }),
    },
    scopePaths: {
      gitlab: `${gitlab.hostBaseUrl}/acme`,
      github: `${github.hostUrl}/acme`,
      ado: `${ado.server.url}/${ADO_ORG}`,
      bitbucket: 'https://bitbucket.org/acme',
    },
    async close() {
      await Promise.all([gitlab.close(), github.close(), ado.close(), bitbucket.close()]);
    },
  };
}
