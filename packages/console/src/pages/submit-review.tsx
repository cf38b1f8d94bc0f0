import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge } from '../ui/display.js';
import { Form, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';

const OUTCOMES: Record<Schemas['ByCoordinatesResult']['outcome'], string> = {
  submitted: 'The review is queued.',
  duplicateActiveJob: 'A review of this revision is already running.',
  notSubmittable: 'The pull request cannot be reviewed now.',
  notAuthorized: 'No webhook or crawl configuration of this client covers these coordinates.',
  pullRequestNotFound: 'The provider has no such pull request.',
  submissionFailed: 'Queueing failed inside Margin.',
  revisionUnresolvable: 'The provider could not be asked for the pull request’s revision.',
};

/**
 * A review by coordinates: scope and project must match one of the client's webhook or crawl
 * configurations exactly; the revision is read from the provider.
 */
export function SubmitReviewPage() {
  const { client } = useClient();
  const [providerScopePath, setScope] = useState('');
  const [providerProjectKey, setProject] = useState('');
  const [repositoryId, setRepository] = useState('');
  const [pullRequestId, setPullRequest] = useState('');
  const [result, setResult] = useState<Schemas['ByCoordinatesResult']>();
  const action = useAction(async () => {
    setResult(undefined);
    setResult(
      await api.reviewing.submitReviewByCoordinates(client.id, {
        providerScopePath,
        providerProjectKey,
        repositoryId,
        pullRequestId: Number(pullRequestId),
      }),
    );
  }, [queryKeys.jobs(client.id)]);
  return (
    <Page title="Submit a review">
      <Section title="By coordinates">
        <Form
          action={action}
          submitLabel="Submit review"
          pendingLabel="Asking the provider…"
          label="Submit a review by coordinates"
        >
          <div className="row">
            <TextField
              label="Scope URL"
              name="providerScopePath"
              value={providerScopePath}
              onChange={setScope}
              required
              maxLength={512}
              placeholder="https://github.com/acme"
              hint="Exactly as in the webhook or crawl configuration."
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
        </Form>
        {result && (
          <div
            className={result.outcome === 'submitted' ? 'result-ok' : 'problem'}
            role={result.outcome === 'submitted' ? 'status' : 'alert'}
          >
            <p>
              <Badge value={result.outcome === 'submitted' ? 'ok' : 'failed'} label={result.outcome} />{' '}
              {OUTCOMES[result.outcome]} {result.reason ?? result.error}
            </p>
            {result.jobId && (
              <p>
                <Link to={`/clients/${client.id}/reviews/${result.jobId}`}>Open the review</Link>
              </p>
            )}
          </div>
        )}
      </Section>
    </Page>
  );
}
