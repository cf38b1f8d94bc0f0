import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Empty, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { ProjectField, ScopeField, type SourceKind, useClientScopes, useRepositories } from './discovery.js';

/** Code-knowledge sources: repositories (or Azure DevOps wikis) reviews may consult. */
export function KnowledgePage() {
  const { client, canAdminister } = useClient();
  const sources = useCursorList('sources', queryKeys.knowledge(client.id), (q) =>
    api.knowledge.listKnowledgeSources(client.id, q),
  );
  return (
    <Page title="Code knowledge">
      <Section title="Sources">
        <Loaded query={sources.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No knowledge sources.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Knowledge sources</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Repository</th>
                      <th scope="col">Branches</th>
                      <th scope="col">Index</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((s) => (
                      <tr key={s.id}>
                        <td>{s.displayName}</td>
                        <td>{s.sourceKind}</td>
                        <td>
                          {s.sourceDisplayName} <span className="muted small mono">{s.rootPath}</span>
                        </td>
                        <td className="mono small">
                          {s.trackedBranches.map((b) => b.branchName).join(', ') || s.defaultBranch}
                        </td>
                        <td>
                          <IndexState sourceId={s.id} name={s.displayName} canRefresh={canAdminister} />
                        </td>
                        <td>
                          <Time at={s.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {sources.pager('Knowledge sources')}
              </>
            )
          }
        </Loaded>
      </Section>
      <SearchKnowledge />
      {canAdminister && <CreateSource />}
    </Page>
  );
}

/** Each tracked branch's index (status, files, when), polled while one is queued or indexing; Refresh queues them all. */
function IndexState({ sourceId, name, canRefresh }: { sourceId: string; name: string; canRefresh: boolean }) {
  const { client } = useClient();
  const key = [...queryKeys.knowledge(client.id), 'index', sourceId];
  const index = useQuery({
    queryKey: key,
    queryFn: () => api.knowledge.getKnowledgeIndex(client.id, sourceId),
    refetchInterval: (q) =>
      q.state.data?.branches.some((b) => b.status === 'queued' || b.status === 'indexing') ? 2000 : false,
  });
  const refresh = useAction(() => api.knowledge.refreshKnowledgeSource(client.id, sourceId, {}), [key]);
  return (
    <>
      <Loaded query={index}>
        {(data) => (
          <ul className="plain small">
            {data.branches.map((b) => (
              <li key={b.branchName}>
                <span className="mono">{b.branchName}</span>: {b.status}
                {b.indexedAt && (
                  <>
                    {' '}
                    ({b.files} files, {b.symbols} symbols, <Time at={b.indexedAt} />)
                  </>
                )}
                {b.error && <span className="muted"> — {b.error}</span>}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
      {canRefresh && (
        <button
          type="button"
          onClick={() => void refresh.run()}
          disabled={refresh.pending}
          aria-label={`Refresh ${name}`}
        >
          Refresh
        </button>
      )}
      <ProblemSummary problem={refresh.problem} />
    </>
  );
}

type SearchResults = Schemas['KnowledgeSearchResults']['results'];

/** Searches every source of the client by words, meaning and symbol names, as reviews do. */
function SearchKnowledge() {
  const { client } = useClient();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<'auto' | 'lexical' | 'semantic'>('auto');
  const [results, setResults] = useState<SearchResults>();
  const search = useAction(async () => {
    setResults((await api.knowledge.searchKnowledge(client.id, { query, mode })).results);
  });
  return (
    <Section title="Search">
      <Form action={search} submitLabel="Search" pendingLabel="Searching…" label="Search code knowledge">
        <div className="row">
          <TextField label="Query" name="query" value={query} onChange={setQuery} required />
          <SelectField
            label="Mode"
            name="mode"
            value={mode}
            onChange={(v) => setMode(v as typeof mode)}
            options={[
              { value: 'auto', label: 'Words, meaning and symbols' },
              { value: 'lexical', label: 'Words' },
              { value: 'semantic', label: 'Meaning (needs embeddingDefault)' },
            ]}
          />
        </div>
      </Form>
      {results &&
        (results.length === 0 ? (
          <Empty>Nothing matches.</Empty>
        ) : (
          <ol aria-label="Search results">
            {results.map((r) => (
              <li key={`${r.sourceId}:${r.path}:${r.startLine}`}>
                <span className="mono">
                  {r.path}:{r.startLine}–{r.endLine}
                </span>{' '}
                <span className="muted small">
                  {r.branchName} @ {r.commit.slice(0, 8)}, by {r.matchedBy}
                </span>
                <pre className="small">{r.snippet}</pre>
              </li>
            ))}
          </ol>
        ))}
    </Section>
  );
}

function CreateSource() {
  const { client } = useClient();
  const scopes = useClientScopes(client.id);
  const [scopeId, setScopeId] = useState('');
  const [project, setProject] = useState<{ projectId: string; providerProjectKey: string }>();
  const [sourceKind, setSourceKind] = useState<SourceKind>('repository');
  const [repository, setRepository] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [rootPath, setRootPath] = useState('/');
  const [symbolMode, setSymbolMode] = useState('auto');
  const repositories = useRepositories(client.id, scopeId, project?.projectId, sourceKind);
  const chosen = repositories.data?.items.find((r) => r.canonicalSourceRef.value === repository);
  const isWiki = sourceKind === 'adoWiki';
  const action = useAction(async () => {
    await api.knowledge.createKnowledgeSource(client.id, {
      displayName,
      sourceKind,
      organizationScopeId: scopeId,
      providerProjectKey: project?.providerProjectKey ?? '',
      canonicalSourceRef: chosen?.canonicalSourceRef ?? { provider: 'gitHostA', value: repository },
      sourceDisplayName: chosen?.displayName ?? repository,
      defaultBranch: chosen?.defaultBranch ?? 'main',
      rootPath,
      symbolMode: symbolMode as 'auto',
    });
    setDisplayName('');
  }, [queryKeys.knowledge(client.id)]);
  return (
    <Section title="Add a source">
      <Loaded query={scopes}>
        {(list) => {
          // Only Azure DevOps projects have wikis (the API refuses adoWiki elsewhere).
          const hasWikis = list.find((c) => c.scope.id === scopeId)?.connection.providerFamily === 'suiteDevOps';
          return (
            <Form action={action} submitLabel="Add source" pendingLabel="Adding…" label="Add a knowledge source">
              <div className="row">
                <TextField
                  label="Name"
                  name="displayName"
                  value={displayName}
                  onChange={setDisplayName}
                  required
                  maxLength={200}
                />
                <ScopeField
                  scopes={list}
                  value={scopeId}
                  onChange={(id) => {
                    setScopeId(id);
                    setProject(undefined);
                    setSourceKind('repository');
                    setRepository('');
                  }}
                />
                <ProjectField
                  clientId={client.id}
                  scopeId={scopeId}
                  value={project?.providerProjectKey ?? ''}
                  onChange={(p) => {
                    setProject(p);
                    setRepository('');
                  }}
                />
                {hasWikis && (
                  <SelectField
                    label="Kind"
                    name="sourceKind"
                    value={sourceKind}
                    onChange={(v) => {
                      setSourceKind(v as SourceKind);
                      setRepository('');
                    }}
                    options={[
                      { value: 'repository', label: 'Repository' },
                      { value: 'adoWiki', label: 'Wiki' },
                    ]}
                  />
                )}
                {project && (
                  <SelectField
                    label={isWiki ? 'Wiki' : 'Repository'}
                    name="canonicalSourceRef.value"
                    value={repository}
                    onChange={setRepository}
                    required
                    placeholder={isWiki ? 'Choose a wiki…' : 'Choose a repository…'}
                    options={(repositories.data?.items ?? []).map((r) => ({
                      value: r.canonicalSourceRef.value,
                      label: r.displayName,
                    }))}
                  />
                )}
              </div>
              <div className="row">
                <TextField label="Folder" name="rootPath" value={rootPath} onChange={setRootPath} maxLength={1000} />
                <SelectField
                  label="Symbols"
                  name="symbolMode"
                  value={symbolMode}
                  onChange={setSymbolMode}
                  options={[
                    { value: 'auto', label: 'Index symbols where the language is known' },
                    { value: 'textOnly', label: 'Text only' },
                  ]}
                />
              </div>
            </Form>
          );
        }}
      </Loaded>
    </Section>
  );
}
