import type { Schemas } from '@margin/sdk-client';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Empty, Loaded, Time } from '../ui/display.js';
import { Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { UntrustedMarkdown } from '../ui/untrusted-markdown.js';

type Conversation = Schemas['Conversation'];

const OUTCOMES: Record<NonNullable<Conversation['outcome']>, string> = {
  answered: 'Answered',
  queuedReview: 'Review queued',
  paused: 'Paused',
  resumed: 'Resumed',
  refused: 'Refused',
  failed: 'Failed',
};

/**
 * What people asked Margin in a pull request's comments and what it answered: on a job's page (its
 * pull request) and on the reviews list filtered to one pull request. Questions and answers are
 * provider text, shown as untrusted Markdown.
 */
export function ConversationsSection({
  clientId,
  repositoryId,
  pullRequestId,
}: {
  clientId: string;
  repositoryId?: string | undefined;
  pullRequestId: number;
}) {
  const conversations = useCursorList(
    'conversations',
    [...queryKeys.conversations(clientId), { repositoryId: repositoryId ?? null, pullRequestId }],
    (q) =>
      api.reviewing.listConversations(clientId, {
        ...q,
        pullRequestId,
        ...(repositoryId ? { repositoryId } : {}),
      }),
    { refetchInterval: 10_000 },
  );
  return (
    <Section title="Conversations">
      <Loaded query={conversations.query}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>Nobody has mentioned Margin on this pull request.</Empty>
          ) : (
            <>
              <table>
                <caption className="sr-only">Mentions of Margin on this pull request</caption>
                <thead>
                  <tr>
                    <th scope="col">Asked</th>
                    <th scope="col">By</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((c) => (
                    <tr key={c.id}>
                      <td>
                        {c.command ? <code>{c.command}</code> : <UntrustedMarkdown text={c.question ?? ''} />}
                        <div className="muted small">
                          <Time at={c.createdAt} />
                        </div>
                      </td>
                      <td>{c.author.displayName}</td>
                      <td>
                        {c.outcome ? OUTCOMES[c.outcome] : 'Waiting'}
                        {c.jobId && (
                          <div className="small">
                            <Link to={`/clients/${clientId}/reviews/${c.jobId}`}>Queued review</Link>
                          </div>
                        )}
                      </td>
                      <td>{c.answer ? <UntrustedMarkdown text={c.answer} /> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {conversations.pager('Conversations')}
            </>
          )
        }
      </Loaded>
    </Section>
  );
}
