import { Link } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty, Loaded } from '../ui/display.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { aiKindName } from '../words.js';

/** The client's AI connections with their verification and activation state. */
export function AiConnectionsPage() {
  const { client, canAdminister } = useClient();
  const connections = useCursorList('connections', queryKeys.ai(client.id), (q) =>
    api.ai.listAiConnections(client.id, q),
  );
  return (
    <Page
      title="AI connections"
      actions={
        canAdminister && (
          <Link to="new" className="button primary">
            New AI connection
          </Link>
        )
      }
    >
      <Section title="Connections">
        <Loaded query={connections.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No AI connections yet. {canAdminister && <Link to="new">Create the first one</Link>}</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">AI connections</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Models</th>
                      <th scope="col">Verification</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((c) => (
                      <tr key={c.id}>
                        <td>
                          <Link to={c.id}>{c.displayName}</Link>
                        </td>
                        <td>{aiKindName(c.providerKind)}</td>
                        <td>{c.configuredModels.map((m) => m.remoteModelId).join(', ')}</td>
                        <td>
                          <Badge value={c.verification.status} />
                        </td>
                        <td>
                          <Badge value={c.isActive ? 'active' : 'inactive'} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {connections.pager('AI connections')}
              </>
            )
          }
        </Loaded>
      </Section>
    </Page>
  );
}
