import type { Schemas } from '@margin/sdk-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, Empty, formatCount, formatUsd, Loaded, Time } from '../ui/display.js';
import { ProblemSummary, SelectField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { PAGE_SIZE, useCursorList } from '../ui/paging.js';
import { UntrustedMarkdown } from '../ui/untrusted-markdown.js';
import { EVENT_CATEGORIES, familyName } from '../words.js';
import { ConversationsSection } from './conversations-section.js';
import { Coverage } from './job-coverage.js';
import { Findings } from './job-findings.js';
import { Protocol } from './job-protocol.js';

type Job = Schemas['JobStatus'];

const ACTIVE = new Set(['queued', 'running']);
const RESTARTABLE = new Set(['failed', 'budgetHeld', 'budgetExceeded']);
// A queued or running job is read again this often, its status and its protocol alike.
const POLL_MS = 1000;

/** One review: live progress, findings by file, coverage, usage, the protocol, stop and restart. */
export function JobPage() {
  const { client } = useClient();
  const { jobId = '' } = useParams();
  const job = useQuery({
    queryKey: queryKeys.jobStatus(client.id, jobId),
    queryFn: () => api.reviewing.getReviewJobStatus(jobId),
    refetchInterval: (query) => (ACTIVE.has(query.state.data?.status ?? '') ? POLL_MS : false),
  });
  return (
    <Loaded query={job}>
      {(j) => (
        <Page title={`${j.repository.projectPath} #${j.codeReview.number}`} actions={<JobActions job={j} />}>
          <Header job={j} />
          {j.result ? (
            <>
              {j.result.summary && (
                <Section title="Summary">
                  <UntrustedMarkdown className="summary" text={j.result.summary} />
                </Section>
              )}
              <Findings job={j} />
              <Coverage coverage={j.result.coverage} />
            </>
          ) : (
            !ACTIVE.has(j.status) && <Empty>This review has no result.</Empty>
          )}
          {j.usage && <Usage usage={j.usage} />}
          <ProtocolSection job={j} />
          <ConversationsSection
            clientId={client.id}
            repositoryId={j.repository.externalRepositoryId}
            pullRequestId={j.codeReview.number}
          />
        </Page>
      )}
    </Loaded>
  );
}

function Header({ job }: { job: Job }) {
  const { filesDone, filesTotal } = job.progress;
  return (
    <Section title="Status">
      <dl className="pairs">
        <div>
          <dt>Status</dt>
          <dd>
            <Badge value={job.status} />
          </dd>
        </div>
        <div>
          <dt>Provider</dt>
          <dd>{familyName(job.provider)}</dd>
        </div>
        <div>
          <dt>Revision</dt>
          <dd className="mono small">
            {job.reviewRevision
              ? `${job.reviewRevision.headSha.slice(0, 12)} (base ${job.reviewRevision.baseSha.slice(0, 12)})`
              : 'latest'}
          </dd>
        </div>
        <div>
          <dt>Trigger</dt>
          <dd>
            {job.trigger}, attempt {job.attempt}
          </dd>
        </div>
        <div>
          <dt>Submitted</dt>
          <dd>
            <Time at={job.submittedAt} />
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <Time at={job.startedAt} />
          </dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>
            <Time at={job.completedAt} />
          </dd>
        </div>
      </dl>
      {ACTIVE.has(job.status) && (
        <div className="progress" role="status">
          <label htmlFor="job-progress">
            {job.status === 'queued'
              ? 'Waiting for a worker…'
              : filesTotal
                ? `Reviewed ${filesDone} of ${filesTotal} files…`
                : 'Preparing the review…'}
          </label>
          <progress id="job-progress" max={filesTotal || undefined} value={filesTotal ? filesDone : undefined} />
        </div>
      )}
      {job.error && (
        <div className="problem" role="alert">
          <p>{job.error}</p>
        </div>
      )}
    </Section>
  );
}

function JobActions({ job }: { job: Job }) {
  const { client, canAdminister } = useClient();
  const moved = [queryKeys.job(client.id, job.jobId), queryKeys.jobs(client.id)];
  const stop = useAction(() => api.reviewing.stopReviewJob(job.jobId), moved);
  const restart = useAction(() => api.reviewing.restartReviewJob(job.jobId), moved);
  return (
    <>
      {canAdminister && ACTIVE.has(job.status) && (
        <ConfirmButton
          label="Stop review"
          confirmLabel="Stop now"
          onConfirm={() => void stop.run()}
          disabled={stop.pending}
        />
      )}
      {RESTARTABLE.has(job.status) && (
        <button type="button" onClick={() => void restart.run()} disabled={restart.pending}>
          Restart review
        </button>
      )}
      <ProblemSummary problem={stop.problem ?? restart.problem} />
    </>
  );
}

function Usage({ usage }: { usage: NonNullable<Job['usage']> }) {
  return (
    <Section title="Usage and cost">
      <dl className="pairs">
        <div>
          <dt>Input tokens</dt>
          <dd>{formatCount(usage.inputTokens)}</dd>
        </div>
        <div>
          <dt>Cached input</dt>
          <dd>{formatCount(usage.cachedInputTokens)}</dd>
        </div>
        <div>
          <dt>Output tokens</dt>
          <dd>{formatCount(usage.outputTokens)}</dd>
        </div>
        <div>
          <dt>Estimated cost</dt>
          <dd>{formatUsd(usage.estimatedCostUsd)}</dd>
        </div>
      </dl>
      {usage.byModel.length > 0 && (
        <table>
          <caption className="sr-only">Usage by model and purpose</caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Purpose</th>
              <th scope="col">Input</th>
              <th scope="col">Cached</th>
              <th scope="col">Output</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {usage.byModel.map((m) => (
              <tr key={`${m.connectionId}-${m.remoteModelId}-${m.purpose}`}>
                <td className="mono">{m.remoteModelId}</td>
                <td className="mono">{m.purpose}</td>
                <td>{formatCount(m.inputTokens)}</td>
                <td>{formatCount(m.cachedInputTokens)}</td>
                <td>{formatCount(m.outputTokens)}</td>
                <td>{formatUsd(m.estimatedCostUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function ProtocolSection({ job }: { job: Job }) {
  const { client } = useClient();
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const [withBodies, setWithBodies] = useState(true);
  const active = ACTIVE.has(job.status);
  // Passes come a page at a time (the next page's cursor is the API's X-Next-Cursor), the page in the URL.
  const protocol = useCursorList(
    'protocol',
    [...queryKeys.jobProtocol(client.id, job.jobId), { category, withBodies }],
    async (q) => {
      const { passes, nextCursor } = await api.reviewing.getReviewJobProtocolPage(job.jobId, {
        ...q,
        ...(category ? { eventCategory: category as 'ai-call' } : {}),
        ...(withBodies ? {} : { includeEvents: 'false' as const }),
      });
      return { items: passes, nextCursor };
    },
    active ? { refetchInterval: POLL_MS } : {},
  );
  // The last passes are written as the job ends, after the protocol's last poll: read it once more then.
  const queryClient = useQueryClient();
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.jobProtocol(client.id, job.jobId) });
    }
    wasActive.current = active;
  }, [active, client.id, job.jobId, queryClient]);
  return (
    <Section title="Protocol">
      <div className="row">
        <SelectField
          label="Event category"
          name="eventCategory"
          value={category}
          onChange={(v) =>
            setParams((p) => {
              const copy = new URLSearchParams(p);
              if (v) copy.set('category', v);
              else copy.delete('category');
              // A cursor belongs to the filter it was read with: another category starts at its first page.
              copy.delete('protocolCursor');
              copy.delete('protocolPage');
              return copy;
            })
          }
          placeholder="All categories"
          options={[...EVENT_CATEGORIES]}
        />
        <div className="field check">
          <input
            id="with-bodies"
            type="checkbox"
            checked={withBodies}
            onChange={(e) => setWithBodies(e.target.checked)}
          />
          <label htmlFor="with-bodies">Include event bodies (decisions, call details)</label>
        </div>
      </div>
      <Loaded query={protocol.query}>
        {(data) => (
          <>
            <Protocol passes={data.items} start={(protocol.page - 1) * PAGE_SIZE + 1} />
            {protocol.pager('Protocol')}
          </>
        )}
      </Loaded>
    </Section>
  );
}
