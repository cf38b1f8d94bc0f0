import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { api } from '../api/client.js';
import { Empty, Loaded } from '../ui/display.js';
import { SelectField } from '../ui/form.js';
import { useResource } from '../ui/use-resource.js';
import { familyName } from '../words.js';

export interface ScopeChoice {
  scope: Schemas['ProviderScope'];
  connection: Schemas['ProviderConnection'];
}

/** Every enabled scope of the client's connections (what triggers and knowledge sources are bound to). */
export function useClientScopes(clientId: string, connectionId?: string, version = 0) {
  return useResource(async (): Promise<ScopeChoice[]> => {
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
  }, [clientId, connectionId, version]);
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
  const projects = useResource(
    async () =>
      scopeId
        ? api.scm.discoverProjects(clientId, { organizationScopeId: scopeId, ...(purpose ? { purpose } : {}) })
        : undefined,
    [clientId, scopeId, purpose],
  );
  if (!scopeId) return null;
  return (
    <Loaded resource={projects}>
      {(data) =>
        data && (
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
        )
      }
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
  const filters = useResource(
    async () =>
      scopeId && projectId
        ? api.scm.discoverCrawlFilters(clientId, {
            organizationScopeId: scopeId,
            projectId,
            ...(purpose ? { purpose } : {}),
          })
        : undefined,
    [clientId, scopeId, projectId, purpose],
  );
  if (!scopeId || !projectId) return null;
  const isPicked = (f: Filter) => selected.some((s) => s.canonicalSourceRef.value === f.canonicalSourceRef.value);
  return (
    <fieldset className="fieldset">
      <legend>Repositories (none picked: every repository of the project)</legend>
      <Loaded resource={filters}>
        {(data) =>
          !data || data.items.length === 0 ? (
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
export function DiscoveryBrowser({
  clientId,
  connectionId,
  version,
}: {
  clientId: string;
  connectionId: string;
  /** Bumped when the connection's scopes change. */
  version: number;
}) {
  const scopes = useClientScopes(clientId, connectionId, version);
  const [scopeId, setScopeId] = useState('');
  const [project, setProject] = useState<{ projectId: string; providerProjectKey: string }>();
  const [repository, setRepository] = useState('');
  const sources = useResource(
    async () =>
      scopeId && project
        ? api.scm.discoverSources(clientId, {
            organizationScopeId: scopeId,
            projectId: project.projectId,
            sourceKind: 'repository',
          })
        : undefined,
    [clientId, scopeId, project?.projectId],
  );
  const chosen = sources.data?.items.find((s) => s.canonicalSourceRef.value === repository);
  const branches = useResource(
    async () =>
      scopeId && project && chosen
        ? api.scm.discoverBranches(clientId, {
            organizationScopeId: scopeId,
            projectId: project.projectId,
            sourceKind: 'repository',
            canonicalSourceProvider: chosen.canonicalSourceRef.provider,
            canonicalSourceValue: chosen.canonicalSourceRef.value,
          })
        : undefined,
    [clientId, scopeId, project?.projectId, chosen?.canonicalSourceRef.value],
  );
  return (
    <Loaded resource={scopes}>
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
              <Loaded resource={sources}>
                {(data) =>
                  data && (
                    <SelectField
                      label="Repository"
                      name="repository"
                      value={repository}
                      onChange={setRepository}
                      placeholder="Choose a repository…"
                      options={data.items.map((s) => ({ value: s.canonicalSourceRef.value, label: s.displayName }))}
                    />
                  )
                }
              </Loaded>
            )}
          </div>
          {chosen && (
            <Loaded resource={branches}>
              {(data) =>
                data && (
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
                )
              }
            </Loaded>
          )}
        </div>
      )}
    </Loaded>
  );
}
