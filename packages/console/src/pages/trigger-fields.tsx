import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { SelectField, TextField } from '../ui/form.js';
import { ProjectField, RepositoryFilterPicker, type ScopeChoice, ScopeField } from './discovery.js';

type Filter = Schemas['SuggestedRepoFilterList']['items'][number];
type KnowledgeMode = 'allClientSources' | 'selectedSources' | 'none';

/** What webhook and crawl configurations share: scope, project, repositories, knowledge and temperature. */
export function useTriggerFields() {
  const [scopeId, setScopeId] = useState('');
  const [project, setProject] = useState<{ projectId: string; providerProjectKey: string }>();
  const [filters, setFilters] = useState<Filter[]>([]);
  const [branchPatterns, setBranchPatterns] = useState('');
  const [temperature, setTemperature] = useState('');
  const [knowledgeMode, setKnowledgeMode] = useState<KnowledgeMode>('allClientSources');
  const [knowledgeIds, setKnowledgeIds] = useState<string[]>([]);
  const patterns = branchPatterns
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    state: { scopeId, setScopeId, project, setProject, filters, setFilters, branchPatterns, setBranchPatterns },
    more: { temperature, setTemperature, knowledgeMode, setKnowledgeMode, knowledgeIds, setKnowledgeIds },
    body: () => ({
      organizationScopeId: scopeId,
      providerProjectKey: project?.providerProjectKey ?? '',
      repoFilters: filters.map((f) => ({ ...f, targetBranchPatterns: patterns })),
      knowledgeSourceScopeMode: knowledgeMode,
      ...(knowledgeMode === 'selectedSources' ? { knowledgeSourceIds: knowledgeIds } : {}),
      ...(temperature !== '' ? { reviewTemperature: Number(temperature) } : {}),
    }),
  };
}

export function TriggerFields({
  clientId,
  scopes,
  fields,
  purpose,
}: {
  clientId: string;
  scopes: ScopeChoice[];
  fields: ReturnType<typeof useTriggerFields>;
  purpose?: 'crawl';
}) {
  const { state, more } = fields;
  const sources = useQuery({
    queryKey: [...queryKeys.knowledge(clientId), { limit: 200 }],
    queryFn: () => api.knowledge.listKnowledgeSources(clientId, { limit: 200 }),
  });
  return (
    <>
      <div className="row">
        <ScopeField
          scopes={scopes}
          value={state.scopeId}
          onChange={(id) => {
            state.setScopeId(id);
            state.setProject(undefined);
            state.setFilters([]);
          }}
        />
        <ProjectField
          clientId={clientId}
          scopeId={state.scopeId}
          value={state.project?.providerProjectKey ?? ''}
          onChange={(p) => {
            state.setProject(p);
            state.setFilters([]);
          }}
          {...(purpose ? { purpose } : {})}
        />
      </div>
      {state.project && (
        <RepositoryFilterPicker
          clientId={clientId}
          scopeId={state.scopeId}
          projectId={state.project.projectId}
          selected={state.filters}
          onChange={state.setFilters}
          {...(purpose ? { purpose } : {})}
        />
      )}
      <div className="row">
        <TextField
          label="Target branches"
          name="repoFilters[0].targetBranchPatterns"
          value={state.branchPatterns}
          onChange={state.setBranchPatterns}
          placeholder="main, release/*"
          hint="Comma-separated; a pattern may end in *. Empty: every branch. Applies to the picked repositories."
        />
        <TextField
          label="Review temperature"
          name="reviewTemperature"
          type="number"
          min={0}
          max={2}
          step={0.1}
          value={more.temperature}
          onChange={more.setTemperature}
          hint="0.0 to 2.0; empty uses the model's default."
        />
        <SelectField
          label="Code knowledge"
          name="knowledgeSourceScopeMode"
          value={more.knowledgeMode}
          onChange={(v) => more.setKnowledgeMode(v as KnowledgeMode)}
          options={[
            { value: 'allClientSources', label: 'All of the client’s sources' },
            { value: 'selectedSources', label: 'Selected sources' },
            { value: 'none', label: 'None' },
          ]}
        />
      </div>
      {more.knowledgeMode === 'selectedSources' && (
        <fieldset className="fieldset">
          <legend>Knowledge sources (at least one)</legend>
          <ul className="checks">
            {(sources.data?.items ?? []).map((s) => (
              <li key={s.id}>
                <label>
                  <input
                    type="checkbox"
                    name="knowledgeSourceIds"
                    checked={more.knowledgeIds.includes(s.id)}
                    onChange={(e) =>
                      more.setKnowledgeIds(
                        e.target.checked ? [...more.knowledgeIds, s.id] : more.knowledgeIds.filter((id) => id !== s.id),
                      )
                    }
                  />{' '}
                  {s.displayName}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
    </>
  );
}
