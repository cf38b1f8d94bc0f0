import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { ConfirmButton, Empty, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

/** Pull requests no review may start for, and a form to block one. */
export function BlockedPage() {
  const { client, canAdminister } = useClient();
  const blocks = useCursorList('blocks', queryKeys.blocks(client.id), (q) =>
    api.reviewing.listBlockedPullRequests(client.id, q),
  );
  const unblock = useAction(
    (b: Schemas['BlockedPullRequest']) =>
      api.reviewing.unblockPullRequest(client.id, {
        providerScopePath: b.providerScopePath,
        providerProjectKey: b.providerProjectKey,
        repositoryId: b.repositoryId,
        pullRequestId: b.pullRequestId,
      }),
    [queryKeys.blocks(client.id)],
  );
  return (
    <Page title="Blocked pull requests">
      <Section title="Blocks">
        <ProblemSummary problem={unblock.problem} />
        <Loaded query={blocks.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No pull request is blocked.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Blocked pull requests</caption>
                  <thead>
                    <tr>
                      <th scope="col">Pull request</th>
                      <th scope="col">Repository</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Blocked</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((b) => (
                      <tr key={b.id}>
                        <td>
                          #{b.pullRequestId} <span className="muted">{b.providerProjectKey}</span>
                          <div className="muted small mono">{b.providerScopePath}</div>
                        </td>
                        <td className="mono small">{b.repositoryId}</td>
                        <td>{b.reason}</td>
                        <td>
                          <Time at={b.blockedAt} />
                        </td>
                        <td>
                          {canAdminister && (
                            <ConfirmButton
                              label={`Unblock #${b.pullRequestId}`}
                              confirmLabel="Unblock now"
                              onConfirm={() => void unblock.run(b)}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {blocks.pager('Blocks')}
              </>
            )
          }
        </Loaded>
      </Section>
      {canAdminister && <BlockForm />}
    </Page>
  );
}

function BlockForm() {
  const { client } = useClient();
  const [providerScopePath, setScope] = useState('');
  const [providerProjectKey, setProject] = useState('');
  const [repositoryId, setRepository] = useState('');
  const [pullRequestId, setPullRequest] = useState('');
  const [reason, setReason] = useState('');
  const action = useAction(async () => {
    await api.reviewing.blockPullRequest(client.id, {
      providerScopePath,
      providerProjectKey,
      repositoryId,
      pullRequestId: Number(pullRequestId),
      reason,
    });
    setReason('');
    setPullRequest('');
  }, [queryKeys.blocks(client.id)]);
  return (
    <Section title="Block a pull request">
      <Form action={action} submitLabel="Block" pendingLabel="Blocking…" label="Block a pull request">
        <div className="row">
          <TextField
            label="Scope URL"
            name="providerScopePath"
            value={providerScopePath}
            onChange={setScope}
            required
            maxLength={512}
          />
          <TextField
            label="Project"
            name="providerProjectKey"
            value={providerProjectKey}
            onChange={setProject}
            required
            maxLength={300}
          />
          <TextField
            label="Repository id"
            name="repositoryId"
            value={repositoryId}
            onChange={setRepository}
            required
            maxLength={300}
          />
          <TextField
            label="Pull request number"
            name="pullRequestId"
            type="number"
            min={1}
            step={1}
            value={pullRequestId}
            onChange={setPullRequest}
            required
          />
        </div>
        <TextField label="Reason" name="reason" value={reason} onChange={setReason} required maxLength={2000} />
      </Form>
    </Section>
  );
}
