import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Empty, Loaded } from '../ui/display.js';
import { Form, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { JOB_STATUSES } from '../words.js';
import { ConversationsSection } from './conversations-section.js';
import { JobTable } from './job-table.js';

type Status = (typeof JOB_STATUSES)[number];

/** The client's reviews, newest first, filtered by status, repository and pull request (all in the URL). */
export function JobsPage() {
  const { client } = useClient();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const repositoryId = params.get('repositoryId') ?? '';
  const pullRequestId = params.get('pullRequestId') ?? '';
  const jobs = useCursorList(
    'jobs',
    [...queryKeys.jobs(client.id), { status, repositoryId, pullRequestId }],
    (q) =>
      api.reviewing.listReviewJobs(client.id, {
        ...q,
        ...(status ? { status: status as Status } : {}),
        ...(repositoryId ? { repositoryId } : {}),
        ...(pullRequestId ? { pullRequestId: Number(pullRequestId) } : {}),
      }),
    { refetchInterval: 5000 },
  );
  return (
    <Page
      title="Reviews"
      actions={
        <Link to="submit" className="button">
          Submit a review
        </Link>
      }
    >
      <Filters
        key={`${status}|${repositoryId}|${pullRequestId}`}
        initial={{ status, repositoryId, pullRequestId }}
        onApply={(f) => {
          const next = new URLSearchParams();
          for (const [k, v] of Object.entries(f)) if (v) next.set(k, v);
          setParams(next);
        }}
      />
      <Section title="Jobs">
        <Loaded query={jobs.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No reviews match.</Empty>
            ) : (
              <>
                <JobTable jobs={data.items} />
                {jobs.pager('Reviews')}
              </>
            )
          }
        </Loaded>
      </Section>
      {pullRequestId && (
        <ConversationsSection
          clientId={client.id}
          repositoryId={repositoryId || undefined}
          pullRequestId={Number(pullRequestId)}
        />
      )}
    </Page>
  );
}

interface FilterValues {
  status: string;
  repositoryId: string;
  pullRequestId: string;
}

function Filters({ initial, onApply }: { initial: FilterValues; onApply(f: FilterValues): void }) {
  const [values, setValues] = useState(initial);
  const action = useAction(async () => onApply(values));
  const set = (key: keyof FilterValues) => (v: string) => setValues((f) => ({ ...f, [key]: v }));
  return (
    <Form
      action={action}
      submitLabel="Filter"
      label="Filter reviews"
      extraButtons={
        <button type="button" onClick={() => onApply({ status: '', repositoryId: '', pullRequestId: '' })}>
          Clear filters
        </button>
      }
    >
      <div className="row">
        <SelectField
          label="Status"
          name="status"
          value={values.status}
          onChange={set('status')}
          placeholder="Any status"
          options={[...JOB_STATUSES]}
        />
        <TextField
          label="Repository id"
          name="repositoryId"
          value={values.repositoryId}
          onChange={set('repositoryId')}
          maxLength={300}
        />
        <TextField
          label="Pull request"
          name="pullRequestId"
          type="number"
          min={1}
          step={1}
          value={values.pullRequestId}
          onChange={set('pullRequestId')}
        />
      </div>
    </Form>
  );
}
