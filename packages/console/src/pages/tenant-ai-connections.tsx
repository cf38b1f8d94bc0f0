import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Badge, ConfirmButton, Empty, Loaded } from '../ui/display.js';
import { ProblemSummary, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { aiKindName } from '../words.js';
import { CheckResult, NewAiConnectionForm } from './new-ai-connection.js';
import { TenantPicker } from './tenant-picker.js';

/**
 * A tenant's own AI connections (Commercial): its administrators and the platform administrator
 * create, verify and activate them here; the tenant's catalog entries (logical models) point at them,
 * and its clients use them through those entries without ever seeing the key.
 */
export function TenantAiConnectionsPage() {
  return (
    <Page title="Tenant AI connections">
      <TenantPicker>{(tenant) => <TenantConnections key={tenant.id} tenantId={tenant.id} />}</TenantPicker>
    </Page>
  );
}

function TenantConnections({ tenantId }: { tenantId: string }) {
  const listKey = [...queryKeys.creatableTenants, tenantId, 'ai-connections'];
  const connections = useCursorList('connections', listKey, (q) => api.ai.listTenantAiConnections(tenantId, q));
  // A fresh form after each save: the key and the picked models are forgotten.
  const [formRound, setFormRound] = useState(0);
  return (
    <>
      <Section title="Connections">
        <Loaded query={connections.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No tenant AI connections yet.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Tenant AI connections</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Models</th>
                      <th scope="col">Verification</th>
                      <th scope="col">State</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((c) => (
                      <ConnectionRow key={c.id} tenantId={tenantId} connection={c} listKey={listKey} />
                    ))}
                  </tbody>
                </table>
                {connections.pager('Tenant AI connections')}
              </>
            )
          }
        </Loaded>
      </Section>
      <Section title="New tenant AI connection">
        <NewAiConnectionForm
          key={formRound}
          owner={{
            probe: (body) => api.ai.probeTenantAiConnection(tenantId, body),
            discover: (body) => api.ai.discoverTenantAiModels(tenantId, body),
            create: (body) => api.ai.createTenantAiConnection(tenantId, body),
            listKey,
            onCreated: () => setFormRound((n) => n + 1),
          }}
        />
      </Section>
    </>
  );
}

function ConnectionRow(props: { tenantId: string; connection: Schemas['AiConnection']; listKey: readonly unknown[] }) {
  const { tenantId, connection: c, listKey } = props;
  const verify = useAction(() => api.ai.verifyTenantAiConnection(tenantId, c.id), [listKey]);
  const setActive = useAction(
    (on: boolean) => (on ? api.ai.activateTenantAiConnection : api.ai.deactivateTenantAiConnection)(tenantId, c.id),
    [listKey],
  );
  const remove = useAction(() => api.ai.deleteTenantAiConnection(tenantId, c.id), [listKey]);
  return (
    <tr>
      <td>{c.displayName}</td>
      <td>{aiKindName(c.providerKind)}</td>
      <td>{c.configuredModels.map((m) => m.remoteModelId).join(', ')}</td>
      <td>
        <Badge value={c.verification.status} />
        {c.verification.status === 'failed' && <CheckResult result={c.verification} what="Verification" />}
      </td>
      <td>
        <Badge value={c.isActive ? 'active' : 'inactive'} />
      </td>
      <td>
        <div className="form-actions">
          <button type="button" onClick={() => void verify.run()} disabled={verify.pending}>
            {verify.pending ? 'Verifying…' : `Verify ${c.displayName}`}
          </button>
          {c.isActive ? (
            <button type="button" onClick={() => void setActive.run(false)} disabled={setActive.pending}>
              Deactivate {c.displayName}
            </button>
          ) : (
            <button
              type="button"
              onClick={() => void setActive.run(true)}
              disabled={setActive.pending || c.verification.status !== 'verified'}
              title={c.verification.status !== 'verified' ? 'Verify successfully first' : undefined}
            >
              Activate {c.displayName}
            </button>
          )}
          <ConfirmButton
            label={`Delete ${c.displayName}`}
            confirmLabel="Delete now"
            onConfirm={() => void remove.run()}
          />
        </div>
        <ProblemSummary problem={verify.problem ?? setActive.problem ?? remove.problem} />
      </td>
    </tr>
  );
}
