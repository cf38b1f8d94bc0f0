import { z } from 'zod';
import { oneOf, registeredId, required, timestamp } from '../kernel/index.js';
import { AUTHENTICATION_KINDS, BUILT_IN_PROVIDER_FAMILIES } from '../scm-provider/index.js';
import { SCOPE_TYPES, VERIFICATION_STATUSES } from './connection-records.js';
import { PROVIDER_FAILURES } from './provider-failures.js';
import { httpUrlProblem } from './support-matrix.js';

/** A family id as a request or response field: the built-ins listed, a plugin's accepted. */
export const providerFamily = registeredId(BUILT_IN_PROVIDER_FAMILIES, 'provider family').meta({
  description:
    'suiteDevOps (Azure DevOps), gitHostA (GitHub), gitHostB (GitLab), gitHostC (Bitbucket), or a family a plugin registers.',
});

const httpUrl = (max: number) =>
  z
    .string({ error: required('a string') })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const problem = httpUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const displayName = (max: number) =>
  z
    .string({ error: required('a string') })
    .trim()
    .min(1, 'must not be blank')
    .max(max, `must be at most ${max} characters`);

const authenticationKind = z.enum(AUTHENTICATION_KINDS, { error: oneOf(AUTHENTICATION_KINDS) });

const hostBaseUrl = httpUrl(1000).meta({
  description:
    'Absolute http(s) URL of the host: the Azure DevOps organization or collection URL, `https://github.com` or the GitHub Enterprise Server URL, the GitLab URL, `https://bitbucket.org`. No credentials, query or fragment.',
  format: 'uri',
});

// Absent, null and blank all mean "not given", so a form may send every field.
const kindText = z
  .string({ error: 'must be a string' })
  .trim()
  .max(256, 'must be at most 256 characters')
  .nullish()
  .transform((v) => (v ? v : undefined));
const kindInteger = z
  .int({ error: 'must be a positive integer' })
  .positive('must be a positive integer')
  .nullish()
  .transform((v) => v ?? undefined);

const secretText = z
  .string({ error: required('a string') })
  .max(16_384, 'must be at most 16384 characters')
  .meta({ description: 'Write-only: the PAT, Entra client secret or GitHub App private key (PEM). Never returned.' });

const KIND_FIELD_DOCS = {
  oAuthTenantId: 'Entra tenant id; required for, and only for, oauthClientCredentials.',
  oAuthClientId: 'Entra application (client) id; required for, and only for, oauthClientCredentials.',
  hostedAppId: 'GitHub App id; required for, and only for, appInstallation.',
  hostedAppInstallationId: 'GitHub App installation id; required for, and only for, appInstallation.',
};

export const CreateProviderConnectionInput = z
  .object({
    providerFamily,
    authenticationKind,
    hostBaseUrl,
    displayName: displayName(200).optional().meta({ description: 'Default: the host URL.' }),
    secret: secretText.refine((s) => s.trim().length > 0, 'is required'),
    isActive: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default true.' }),
    oAuthTenantId: kindText.meta({ description: KIND_FIELD_DOCS.oAuthTenantId }),
    oAuthClientId: kindText.meta({ description: KIND_FIELD_DOCS.oAuthClientId }),
    hostedAppId: kindInteger.meta({ description: KIND_FIELD_DOCS.hostedAppId }),
    hostedAppInstallationId: kindInteger.meta({ description: KIND_FIELD_DOCS.hostedAppInstallationId }),
  })
  // Which kinds a family accepts, and the fields each kind needs, are checked against the registry
  // (`requireSupportedKind`).
  .meta({ id: 'CreateProviderConnectionInput' });

export const PatchProviderConnectionInput = z
  .object({
    displayName: displayName(200).optional(),
    isActive: z.boolean({ error: 'must be a boolean' }).optional(),
    secret: secretText.nullish().meta({
      description: 'A new secret; absent, null or blank keeps the stored one. A new one resets verification.',
    }),
    hostBaseUrl: hostBaseUrl
      .optional()
      .meta({ description: 'A different host needs `secret` in the same request, and resets verification.' }),
    oAuthTenantId: kindText.meta({
      description: 'oauthClientCredentials only; a change needs `secret` again, and resets verification.',
    }),
    oAuthClientId: kindText.meta({
      description: 'oauthClientCredentials only; a change needs `secret` again, and resets verification.',
    }),
    hostedAppId: kindInteger.meta({
      description: 'appInstallation only; a change needs `secret` again, and resets verification.',
    }),
    hostedAppInstallationId: kindInteger.meta({
      description: 'appInstallation only; a change needs `secret` again, and resets verification.',
    }),
  })
  .meta({ id: 'PatchProviderConnectionInput' });

export const ProviderConnectionView = z
  .object({
    id: z.string(),
    clientId: z.string(),
    providerFamily,
    authenticationKind: z.enum(AUTHENTICATION_KINDS),
    hostBaseUrl: z.string().meta({ description: 'As stored: no trailing slash, scheme and host lower-case.' }),
    displayName: z.string(),
    isActive: z.boolean(),
    oAuthTenantId: z.string().nullable(),
    oAuthClientId: z.string().nullable(),
    hostedAppId: z.number().int().nullable(),
    hostedAppInstallationId: z.number().int().nullable(),
    hasSecret: z.boolean().meta({ description: 'Whether a secret is stored. The secret itself is never returned.' }),
    verificationStatus: z.enum(VERIFICATION_STATUSES).meta({
      description: 'neverVerified after creation and after any change of host or credentials.',
    }),
    lastVerifiedAt: timestamp.nullable().meta({ description: 'When the last verification ran, whatever its outcome.' }),
    lastVerificationError: z
      .string()
      .nullable()
      .meta({ description: 'The provider’s answer to the last failed verification; credentials are never in it.' }),
    lastVerificationFailureCategory: z.enum(PROVIDER_FAILURES).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'ProviderConnection', description: 'A client’s connection to a source-control host.' });

export const ProviderConnectionList = z
  .object({ items: z.array(ProviderConnectionView), nextCursor: z.string().nullable() })
  .meta({ id: 'ProviderConnectionList' });

const scopeType = z
  .enum(SCOPE_TYPES, { error: oneOf(SCOPE_TYPES) })
  .meta({ description: 'organization: ADO organization, GitHub owner, GitLab group, Bitbucket workspace.' });
const externalScopeId = z
  .string({ error: 'must be a string' })
  .trim()
  .max(256, 'must be at most 256 characters')
  .nullish()
  .meta({ description: 'The provider’s own id of the scope, if known.' });
const scopePath = httpUrl(512).meta({
  description:
    'The scope URL: `https://dev.azure.com/<org>`, `https://github.com/<owner>`, `https://gitlab.com/<group>`, `https://bitbucket.org/<workspace>`. Stored without a trailing slash; unique per connection regardless of case.',
  format: 'uri',
});

export const CreateProviderScopeInput = z
  .object({
    scopeType,
    externalScopeId,
    scopePath,
    displayName: displayName(256).optional().meta({ description: 'Default: the scope path.' }),
    isEnabled: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default true.' }),
  })
  .meta({ id: 'CreateProviderScopeInput' });

export const PatchProviderScopeInput = z
  .object({
    scopeType: scopeType.optional(),
    externalScopeId,
    scopePath: scopePath.optional(),
    displayName: displayName(256).optional(),
    isEnabled: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .meta({ id: 'PatchProviderScopeInput' });

export const ProviderScopeView = z
  .object({
    id: z.string(),
    clientId: z.string(),
    connectionId: z.string(),
    scopeType: z.enum(SCOPE_TYPES),
    externalScopeId: z.string().nullable(),
    scopePath: z.string(),
    displayName: z.string(),
    isEnabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'ProviderScope', description: 'Where on a connection’s host reviews happen.' });

export const ProviderScopeList = z
  .object({ items: z.array(ProviderScopeView), nextCursor: z.string().nullable() })
  .meta({ id: 'ProviderScopeList' });

export const ResolveReviewerIdentityQuery = z.object({
  search: z
    .string({ error: required('a string') })
    .trim()
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters')
    .meta({ description: 'Part of a login, name or e-mail, as the provider searches.' }),
});

export const ScmUserView = z
  .object({
    externalUserId: z.string().meta({ description: 'The provider’s user id; store it as the reviewer identity.' }),
    login: z.string(),
    displayName: z.string(),
    isBot: z.boolean(),
  })
  .meta({ id: 'ScmUser' });

export const ReviewerIdentityCandidates = z
  .object({ items: z.array(ScmUserView) })
  .meta({ id: 'ReviewerIdentityCandidates', description: 'Provider users matching the search.' });

const identityText = z
  .string({ error: required('a string') })
  .trim()
  .min(1, 'must not be blank')
  .max(256, 'must be at most 256 characters');

export const PutReviewerIdentityInput = z
  .object({
    externalUserId: identityText,
    login: identityText,
    displayName: identityText.optional().meta({ description: 'Default: the login.' }),
    isBot: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default false.' }),
  })
  .meta({ id: 'PutReviewerIdentityInput' });

export const ReviewerIdentityView = z
  .object({
    clientId: z.string(),
    connectionId: z.string(),
    externalUserId: z.string(),
    login: z.string(),
    displayName: z.string(),
    isBot: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'ReviewerIdentity', description: 'The provider account Margin’s review comments appear under.' });

export const DISCOVERY_PURPOSES = ['crawl', 'webhook', 'knowledge'] as const;
export const SOURCE_KINDS = ['repository', 'adoWiki'] as const;

const scopeId = z
  .string({ error: required('a string') })
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  .meta({ description: 'Id of one of the client’s provider scopes.' });
const projectId = z
  .string({ error: required('a string') })
  .trim()
  .min(1, 'is required')
  .max(500, 'must be at most 500 characters')
  .meta({ description: '`projectId` of a discovered project (the providerProjectKey).' });
const purpose = z
  .enum(DISCOVERY_PURPOSES, { error: oneOf(DISCOVERY_PURPOSES) })
  .optional()
  .meta({ description: '`crawl` needs the crawl-configs capability (409 license_required otherwise).' });
const sourceKind = z
  .enum(SOURCE_KINDS, { error: oneOf(SOURCE_KINDS) })
  .default('repository')
  .meta({ description: '`adoWiki` only on suiteDevOps scopes.' });

export const DiscoverProjectsQuery = z.object({ organizationScopeId: scopeId, purpose });
export const DiscoverSourcesQuery = z.object({ organizationScopeId: scopeId, projectId, sourceKind });
export const DiscoverBranchesQuery = z.object({
  organizationScopeId: scopeId,
  projectId,
  sourceKind,
  canonicalSourceProvider: providerFamily.meta({ description: 'Must be the family of the scope’s connection.' }),
  canonicalSourceValue: z
    .string({ error: required('a string') })
    .trim()
    .min(1, 'is required')
    .max(500, 'must be at most 500 characters')
    .meta({ description: 'The repository id (`canonicalSourceRef.value` of a discovered source).' }),
});
export const DiscoverCrawlFiltersQuery = z.object({ organizationScopeId: scopeId, projectId, purpose });

const truncated = z
  .boolean()
  .meta({ description: 'True when the provider had more than the listing limit; the rest are left out.' });

export const DiscoveredProjectList = z
  .object({
    items: z.array(
      z.object({
        projectId: z.string().meta({ description: 'Pass as `projectId` to the other discovery calls.' }),
        providerProjectKey: z
          .string()
          .meta({ description: 'The same value, as crawl and webhook configurations name it.' }),
        displayName: z.string(),
      }),
    ),
    truncated,
  })
  .meta({ id: 'DiscoveredProjectList' });

export const CanonicalSourceRef = z
  .object({
    provider: providerFamily,
    value: z.string().meta({
      description:
        'Repository id: ADO repository GUID, GitHub numeric id, GitLab project id, Bitbucket repository UUID.',
    }),
  })
  .meta({ id: 'CanonicalSourceRef' });

export const DiscoveredSourceList = z
  .object({
    items: z.array(
      z.object({
        canonicalSourceRef: CanonicalSourceRef,
        displayName: z.string(),
        defaultBranch: z.string().nullable().meta({ description: 'Null for an empty repository.' }),
        webUrl: z.string().optional(),
      }),
    ),
    truncated,
    warnings: z.array(z.string()).meta({ description: 'Why the list may be incomplete.' }),
  })
  .meta({ id: 'DiscoveredSourceList' });

export const DiscoveredBranchList = z
  .object({ items: z.array(z.object({ branchName: z.string() })), truncated })
  .meta({ id: 'DiscoveredBranchList' });

export const SuggestedRepoFilterList = z
  .object({
    items: z.array(
      z.object({
        repositoryName: z.string(),
        displayName: z.string(),
        canonicalSourceRef: CanonicalSourceRef,
        targetBranchPatterns: z
          .array(z.string())
          .meta({ description: 'The default branch; empty for an empty repository.' }),
      }),
    ),
    truncated,
  })
  .meta({
    id: 'SuggestedRepoFilterList',
    description: 'Each item has the shape crawl and webhook configurations take in `repoFilters`.',
  });

export type ProviderConnectionViewBody = z.infer<typeof ProviderConnectionView>;
export type ProviderConnectionListBody = z.infer<typeof ProviderConnectionList>;
export type ProviderScopeViewBody = z.infer<typeof ProviderScopeView>;
export type ProviderScopeListBody = z.infer<typeof ProviderScopeList>;
export type ReviewerIdentityCandidatesBody = z.infer<typeof ReviewerIdentityCandidates>;
export type ReviewerIdentityViewBody = z.infer<typeof ReviewerIdentityView>;
export type DiscoveredProjectListBody = z.infer<typeof DiscoveredProjectList>;
export type DiscoveredSourceListBody = z.infer<typeof DiscoveredSourceList>;
export type DiscoveredBranchListBody = z.infer<typeof DiscoveredBranchList>;
export type SuggestedRepoFilterListBody = z.infer<typeof SuggestedRepoFilterList>;
