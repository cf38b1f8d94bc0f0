import type { Schemas } from '@margin/sdk-client';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Empty, Loaded } from '../ui/display.js';
import { SelectField } from '../ui/form.js';
import { familyName } from '../words.js';

export interface ScopeChoice {
  scope: Schemas['ProviderScope'];
  connection: Schemas['ProviderConnection'];
}

/**
 * Every enabled scope of the client's connections (what triggers and knowledge sources are bound to),
 * or of one connection. Under the client's `scm` key, so adding a scope refreshes it.
 */
export function useClientScopes(clientId: string, connectionId?: string) {
  return useQuery({
    queryKey: [...queryKeys.scm(clientId), 'enabled-scopes', { connectionId: connectionId ?? null }],
    queryFn: async (): Promise<ScopeChoice[]> => {
      const connections = (await api.scm.listProviderConnections(clientId, { limit: 200 })).items.filter(
        (c) => !connectionId || c.id === connectionId,
      );
      const lists = await Promise.all(
        connections.map(async (connection) =>
          (await api.scm.listProviderScopes(clientId, connection.id, { limit: 200 })).items
            .filter((scope) => scope.isEnabled)
            .map((scope) => ({ scope, connection })),
        ),
      );
      return lists.flat();
    },
  });
}

export type SourceKind = Schemas['CreateKnowledgeSourceInput']['sourceKind'];

/**
 * A project's repositories (or, with `adoWiki`, its Azure DevOps wikis by their backing repository),
 * as the provider lists them; nothing is read until both are chosen.
 */
export function useRepositories(
  clientId: string,
  scopeId: string,
  projectId: string | undefined,
  sourceKind: SourceKind = 'repository',
) {
  return useQuery({
    queryKey: [...queryKeys.discovery(clientId), 'repositories', { scopeId, projectId: projectId ?? null, sourceKind }],
    queryFn:
      scopeId && projectId
        ? () =>
            api.scm.discoverSources(clientId, {
              organizationScopeId: scopeId,
              projectId,
              sourceKind,
            })
        : skipToken,
  });
}

export function ScopeField({
  scopes,
  value,
  onChange,
  name = 'organizationScopeId',
}: {
  scopes: ScopeChoice[];
  value: string;
  onChange(id: string): void;
  name?: string;
}) {
  return (
    <SelectField
      label="Scope"
      name={name}
      value={value}
      onChange={onChange}
      required
      placeholder="Choose a scope…"
      options={scopes.map(({ scope, connection }) => ({
        value: scope.id,
        label: `${scope.displayName || scope.scopePath} (${familyName(connection.providerFamily)}, ${connection.displayName})`,
      }))}
      hint={scopes.length === 0 ? 'Add a scope to a source-control connection first.' : undefined}
    />
  );
}

/** Projects of a scope, read from the provider; `purpose: 'crawl'` needs the crawl-configs capability. */
export function ProjectField({
  clientId,
  scopeId,
  value,
  onChange,
  purpose,
}: {
  clientId: string;
  scopeId: string;
  value: string;
  onChange(project: Schemas['DiscoveredProjectList']['items'][number] | undefined): void;
  purpose?: 'crawl';
}) {
  const projects = useQuery({
    queryKey: [...queryKeys.discovery(clientId), 'projects', { scopeId, purpose: purpose ?? null }],
    queryFn: scopeId
      ? () => api.scm.discoverProjects(clientId, { organizationScopeId: scopeId, ...(purpose ? { purpose } : {}) })
      : skipToken,
  });
  if (!scopeId) return null;
  return (
    <Loaded query={projects}>
      {(data) => (
        <SelectField
          label="Project"
          name="providerProjectKey"
          value={value}
          onChange={(key) => onChange(data.items.find((p) => p.providerProjectKey === key))}
          required
          placeholder="Choose a project…"
          options={data.items.map((p) => ({ value: p.providerProjectKey, label: p.displayName }))}
          hint={data.truncated ? 'The provider has more projects than shown.' : undefined}
        />
      )}
    </Loaded>
  );
}

type Filter = Schemas['SuggestedRepoFilterList']['items'][number];

/** The project's repositories as repository filters; none picked means the whole project. */
export function RepositoryFilterPicker({
  clientId,
  scopeId,
  projectId,
  selected,
  onChange,
  purpose,
}: {
  clientId: string;
  scopeId: string;
  projectId: string;
  selected: Filter[];
  onChange(filters: Filter[]): void;
  purpose?: 'crawl';
}) {
  const filters = useQuery({
    queryKey: [
      ...queryKeys.discovery(clientId),
      'repository-filters',
      { scopeId, projectId, purpose: purpose ?? null },
    ],
    queryFn:
      scopeId && projectId
        ? () =>
            api.scm.discoverCrawlFilters(clientId, {
              organizationScopeId: scopeId,
              projectId,
              ...(purpose ? { purpose } : {}),
            })
        : skipToken,
  });
  if (!scopeId || !projectId) return null;
  const isPicked = (f: Filter) => selected.some((s) => s.canonicalSourceRef.value === f.canonicalSourceRef.value);
  return (
    <fieldset className="fieldset">
      <legend>Repositories (none picked: every repository of the project)</legend>
      <Loaded query={filters}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No repositories found.</Empty>
          ) : (
            <ul className="checks">
              {data.items.map((f) => (
                <li key={f.canonicalSourceRef.value}>
                  <label>
                    <input
                      type="checkbox"
                      checked={isPicked(f)}
                      onChange={(e) =>
                        onChange(
                          e.target.checked
                            ? [...selected, f]
                            : selected.filter((s) => s.canonicalSourceRef.value !== f.canonicalSourceRef.value),
                        )
                      }
                    />{' '}
                    {f.displayName} <span className="muted mono small">{f.canonicalSourceRef.value}</span>
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </fieldset>
  );
}

/** Scope, project, repository and branch pickers to look around a connection's reach. */
export function DiscoveryBrowser({ clientId, connectionId }: { clientId: string; connectionId: string }) {
  const scopes = useClientScopes(clientId, connectionId);
  const [scopeId, setScopeId] = useState('');
  const [project, setProject] = useState<{ projectId: string; providerProjectKey: string }>();
  const [repository, setRepository] = useState('');
  const sources = useRepositories(clientId, scopeId, project?.projectId);
  const chosen = sources.data?.items.find((s) => s.canonicalSourceRef.value === repository);
  const branches = useQuery({
    queryKey: [
      ...queryKeys.discovery(clientId),
      'branches',
      { scopeId, projectId: project?.projectId ?? null, repository: chosen?.canonicalSourceRef.value ?? null },
    ],
    queryFn:
      scopeId && project && chosen
        ? () =>
            api.scm.discoverBranches(clientId, {
              organizationScopeId: scopeId,
              projectId: project.projectId,
              sourceKind: 'repository',
              canonicalSourceProvider: chosen.canonicalSourceRef.provider,
              canonicalSourceValue: chosen.canonicalSourceRef.value,
            })
        : skipToken,
  });
  return (
    <Loaded query={scopes}>
      {(list) => (
        <div className="discovery">
          <div className="row">
            <ScopeField
              scopes={list}
              value={scopeId}
              name="discoveryScope"
              onChange={(id) => {
                setScopeId(id);
                setProject(undefined);
                setRepository('');
              }}
            />
            <ProjectField
              clientId={clientId}
              scopeId={scopeId}
              value={project?.providerProjectKey ?? ''}
              onChange={(p) => {
                setProject(p);
                setRepository('');
              }}
            />
            {project && (
              <Loaded query={sources}>
                {(data) => (
                  <SelectField
                    label="Repository"
                    name="repository"
                    value={repository}
                    onChange={setRepository}
                    placeholder="Choose a repository…"
                    options={data.items.map((s) => ({ value: s.canonicalSourceRef.value, label: s.displayName }))}
                  />
                )}
              </Loaded>
            )}
          </div>
          {chosen && (
            <Loaded query={branches}>
              {(data) => (
                <div>
                  <h3>Branches of {chosen.displayName}</h3>
                  <ul className="plain columns">
                    {data.items.map((b) => (
                      <li key={b.branchName} className="mono">
                        {b.branchName}
                        {b.branchName === chosen.defaultBranch ? ' (default)' : ''}
                      </li>
                    ))}
                  </ul>
                  {data.truncated && <p className="hint">The provider has more branches than shown.</p>}
                </div>
              )}
            </Loaded>
          )}
        </div>
      )}
    </Loaded>
  );
}
