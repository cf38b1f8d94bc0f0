import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { ConfirmButton, Empty, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

const SOURCES = ['threadResolved', 'replyRejected', 'adminDismissed'] as const;
type Source = (typeof SOURCES)[number];

const SOURCE_WORDS: Record<Source, string> = {
  threadResolved: 'Thread closed',
  replyRejected: 'Rejected in a reply',
  adminDismissed: 'Dismissed',
};

const INTENT_WORDS: Record<string, string> = {
  rejected: 'Rejected',
  acceptedByHuman: 'Accepted without a change',
  claimsFix: 'Fixed',
};

/**
 * Thread memory: what people decided about Margin's findings (threads resolved, closed as won't fix,
 * rejected in a reply, dismissed). Later reviews hold back findings like the rejected and accepted
 * ones; forgetting a record lets them through again. Filters live in the URL.
 */
export function MemoryPage() {
  const { client, canAdminister } = useClient();
  const [params, setParams] = useSearchParams();
  const filePath = params.get('filePath') ?? '';
  const source = params.get('source') ?? '';
  const memory = useCursorList('memory', [...queryKeys.memory(client.id), { filePath, source }], (q) =>
    api.reviewing.listThreadMemory(client.id, {
      ...q,
      ...(filePath ? { filePath } : {}),
      ...(source ? { source: source as Source } : {}),
    }),
  );
  const forget = useAction(
    (id: string) => api.reviewing.deleteThreadMemory(client.id, id),
    [queryKeys.memory(client.id)],
  );
  return (
    <Page title="Thread memory">
      <p className="hint">
        What people decided about Margin's findings. Reviews of the same repository hold back findings like the rejected
        and accepted ones. Forgetting a record lets such findings through again.
      </p>
      <Filters
        key={`${filePath}|${source}`}
        initial={{ filePath, source }}
        onApply={(f) => {
          const next = new URLSearchParams();
          for (const [k, v] of Object.entries(f)) if (v) next.set(k, v);
          setParams(next);
        }}
      />
      <Section title="Past decisions">
        <ProblemSummary problem={forget.problem} />
        <Loaded query={memory.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>Nothing remembered{filePath || source ? ' that matches' : ' yet'}.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Thread memory</caption>
                  <thead>
                    <tr>
                      <th scope="col">Finding</th>
                      <th scope="col">File</th>
                      <th scope="col">Decision</th>
                      <th scope="col">Where</th>
                      <th scope="col">Remembered</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((m) => (
                      <tr key={m.id}>
                        <td>{m.summary.split('\n', 1)[0]}</td>
                        <td className="mono small">{m.filePath ?? 'any'}</td>
                        <td>
                          {INTENT_WORDS[m.intent] ?? m.intent}
                          <div className="small">
                            {SOURCE_WORDS[m.source]}
                            {m.createdBy ? ` by ${m.createdBy}` : ''}
                          </div>
                        </td>
                        <td className="small">
                          {m.repositoryId ? `${m.repositoryId} #${m.pullRequestId}` : 'every repository'}
                        </td>
                        <td>
                          <Time at={m.createdAt} />
                        </td>
                        <td>
                          {canAdminister && (
                            <ConfirmButton
                              label="Forget"
                              confirmLabel="Forget now"
                              onConfirm={() => void forget.run(m.id)}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {memory.pager('Thread memory')}
              </>
            )
          }
        </Loaded>
      </Section>
    </Page>
  );
}

interface FilterValues {
  filePath: string;
  source: string;
}

function Filters({ initial, onApply }: { initial: FilterValues; onApply(f: FilterValues): void }) {
  const [values, setValues] = useState(initial);
  const action = useAction(async () => onApply(values));
  const set = (key: keyof FilterValues) => (v: string) => setValues((f) => ({ ...f, [key]: v }));
  return (
    <Form
      action={action}
      submitLabel="Filter"
      label="Filter thread memory"
      extraButtons={
        <button type="button" onClick={() => onApply({ filePath: '', source: '' })}>
          Clear filters
        </button>
      }
    >
      <div className="row">
        <TextField label="File" name="filePath" value={values.filePath} onChange={set('filePath')} maxLength={1000} />
        <SelectField
          label="Source"
          name="source"
          value={values.source}
          onChange={set('source')}
          placeholder="Any source"
          options={SOURCES.map((value) => ({ value, label: SOURCE_WORDS[value] }))}
        />
      </div>
    </Form>
  );
}
