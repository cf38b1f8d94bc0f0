import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, Empty, formatCount, formatUsd, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { BUDGET_CAPS, BUDGET_STATES, type BudgetCap, label } from '../words.js';
import { JobTable } from './job-table.js';
import { DailyUsageChart, monthWindow } from './usage-chart.js';

type UsageReport = Schemas['UsageReport'];
type Budget = Schemas['Budget'];
type ClientGrouping = 'day' | 'model' | 'purpose' | 'repository';

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** One token-usage report of the client for one calendar month. */
function useClientUsage(clientId: string, groupBy: ClientGrouping, month: string) {
  return useQuery({
    queryKey: [...queryKeys.usage(clientId), groupBy, month],
    queryFn: () => api.spend.clientTokenUsage(clientId, { groupBy, ...monthWindow(month) }),
  });
}

/**
 * A client's spend this month: token usage by day, model, purpose and repository (every edition),
 * its budget (needs budgeting) and, for a tenant administrator, the tenant's spend per client.
 */
export function SpendPage() {
  const { client } = useClient();
  const { me } = useMe();
  const [month, setMonth] = useState(thisMonth);
  const byDay = useClientUsage(client.id, 'day', month);
  const byModel = useClientUsage(client.id, 'model', month);
  const byPurpose = useClientUsage(client.id, 'purpose', month);
  const byRepository = useClientUsage(client.id, 'repository', month);
  const tenantRoles = me.tenantRoles as Record<string, string>;
  const seesTenant = me.globalRole === 'platformAdmin' || tenantRoles[client.tenantId] === 'TenantAdministrator';
  return (
    <Page title="Spend">
      <p>
        What this client’s model calls used in a calendar month (UTC) and what they are estimated to have cost. A cost
        marked ≈ includes calls to a model without a price, counted as US$0.
      </p>
      <div className="row">
        <TextField
          label="Month"
          name="month"
          type="month"
          max={thisMonth()}
          value={month}
          onChange={(value) => setMonth(/^\d{4}-\d{2}$/.test(value) ? value : thisMonth())}
        />
      </div>
      <Section title="Usage by day">
        <Loaded query={byDay}>
          {(report) =>
            report.totals.calls === 0 ? <Empty>No model calls this month.</Empty> : <DailyUsageChart report={report} />
          }
        </Loaded>
      </Section>
      <Section title="Usage by model">
        <Loaded query={byModel}>{(report) => <UsageTable report={report} keyHeader="Model" />}</Loaded>
      </Section>
      <Section title="Usage by purpose">
        <Loaded query={byPurpose}>{(report) => <UsageTable report={report} keyHeader="Purpose" />}</Loaded>
      </Section>
      <Section title="Usage by repository">
        <Loaded query={byRepository}>{(report) => <UsageTable report={report} keyHeader="Repository" />}</Loaded>
      </Section>
      <BudgetSection />
      <BudgetStoppedJobs />
      {seesTenant && <TenantSpendSection tenantId={client.tenantId} month={month} />}
    </Page>
  );
}

const cost = (usd: number, approximate: boolean) => `${approximate ? '≈ ' : ''}${formatUsd(usd)}`;

/** A report's rows as a table with a totals row; `keyName` names a row's key (a client id by its name). */
function UsageTable({
  report,
  keyHeader,
  keyName = (key) => key || '—',
}: {
  report: UsageReport;
  keyHeader: string;
  keyName?: (key: string) => ReactNode;
}) {
  if (report.rows.length === 0) return <Empty>No model calls this month.</Empty>;
  const { totals } = report;
  return (
    <table>
      <caption className="sr-only">
        Usage by {keyHeader.toLowerCase()}, {report.from} to {report.to}
      </caption>
      <thead>
        <tr>
          <th scope="col">{keyHeader}</th>
          <th scope="col">Calls</th>
          <th scope="col">Input tokens</th>
          <th scope="col">Cached input</th>
          <th scope="col">Output tokens</th>
          <th scope="col">Reasoning</th>
          <th scope="col">Estimated cost</th>
        </tr>
      </thead>
      <tbody>
        {report.rows.map((r) => (
          <tr key={r.key}>
            <th scope="row" className="mono">
              {keyName(r.key)}
            </th>
            <td>{formatCount(r.calls)}</td>
            <td>{formatCount(r.inputTokens)}</td>
            <td>{formatCount(r.cachedInputTokens)}</td>
            <td>{formatCount(r.outputTokens)}</td>
            <td>{formatCount(r.reasoningTokens)}</td>
            <td>{cost(r.estimatedCostUsd, r.costIsApproximate)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{formatCount(totals.calls)}</td>
          <td>{formatCount(totals.inputTokens)}</td>
          <td>{formatCount(totals.cachedInputTokens)}</td>
          <td>{formatCount(totals.outputTokens)}</td>
          <td>{formatCount(totals.reasoningTokens)}</td>
          <td>{cost(totals.estimatedCostUsd, totals.costIsApproximate)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The caps, where this month stands, and (for a client administrator) the form that sets them. */
function BudgetSection() {
  const { client, canAdminister } = useClient();
  const budget = useQuery({ queryKey: queryKeys.budget(client.id), queryFn: () => api.spend.getBudget(client.id) });
  const reset = useAction(() => api.spend.resetBudget(client.id), [queryKeys.budget(client.id)]);
  return (
    <Section title="Budget">
      {/* Without budgeting the API refuses (409 license_required) and Loaded says so in words. */}
      <Loaded query={budget}>
        {(b) => (
          <>
            <dl className="pairs">
              <dt>State</dt>
              <dd>
                <Badge value={b.state} label={label(BUDGET_STATES, b.state)} />
              </dd>
              <dt>Spent this period</dt>
              <dd>{formatUsd(b.monthToDateUsd)}</dd>
              <dt>Period started</dt>
              <dd>
                <Time at={b.periodStartedAt} />
              </dd>
              {(Object.keys(BUDGET_CAPS) as BudgetCap[]).map((cap) => (
                <CapFact key={cap} name={BUDGET_CAPS[cap]} value={b[cap]} />
              ))}
            </dl>
            {canAdminister && (
              <>
                <BudgetForm clientId={client.id} budget={b} />
                <p>
                  Resetting starts a new accounting period now: spend so far no longer counts against the monthly caps.
                </p>
                <ConfirmButton
                  label="Reset the period"
                  confirmLabel="Reset now"
                  onConfirm={() => void reset.run()}
                  disabled={reset.pending}
                />
                <ProblemSummary problem={reset.problem} />
              </>
            )}
          </>
        )}
      </Loaded>
    </Section>
  );
}

function CapFact({ name, value }: { name: string; value: number | null }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{value === null ? <span className="muted">No cap</span> : formatUsd(value)}</dd>
    </>
  );
}

type CapValues = Record<BudgetCap, string>;

const capValues = (budget: Budget): CapValues =>
  Object.fromEntries(
    (Object.keys(BUDGET_CAPS) as BudgetCap[]).map((cap) => [cap, budget[cap] === null ? '' : String(budget[cap])]),
  ) as CapValues;

/** The six caps in one PUT, which replaces them all; an empty field is no cap. */
function BudgetForm({ clientId, budget }: { clientId: string; budget: Budget }) {
  const [values, setValues] = useState(() => capValues(budget));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = Object.fromEntries(
      Object.entries(values).map(([cap, text]) => [cap, text.trim() === '' ? null : Number(text)]),
    );
    await api.spend.putBudget(clientId, body);
    setSaved(true);
  }, [queryKeys.budget(clientId)]);
  return (
    <Form action={save} submitLabel="Save caps" pendingLabel="Saving…" label="Spend caps">
      <p className="muted">In US$; leave a field empty for no cap. A soft cap may not be above its hard cap.</p>
      <div className="row">
        {(Object.keys(BUDGET_CAPS) as BudgetCap[]).map((cap) => (
          <TextField
            key={cap}
            label={`${BUDGET_CAPS[cap]} (US$)`}
            name={cap}
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={values[cap]}
            onChange={(text) => setValues((v) => ({ ...v, [cap]: text }))}
          />
        ))}
      </div>
      {saved && !save.pending && (
        <p role="status" className="ok-text">
          Caps saved.
        </p>
      )}
    </Form>
  );
}

/**
 * Reviews a budget held before any model call or stopped at a hard cap: restartable once the cap is
 * raised or the period reset (a restart is admitted against the budget again).
 */
function BudgetStoppedJobs() {
  const { client } = useClient();
  const list = (status: 'budgetHeld' | 'budgetExceeded') =>
    api.reviewing.listReviewJobs(client.id, { status, limit: 50 });
  const jobs = useQuery({
    queryKey: [...queryKeys.jobs(client.id), 'budget'],
    queryFn: async () => {
      const [held, exceeded] = await Promise.all([list('budgetHeld'), list('budgetExceeded')]);
      return [...held.items, ...exceeded.items].sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
    },
  });
  return (
    <Section title="Held or stopped by the budget">
      <Loaded query={jobs}>
        {(items) =>
          items.length === 0 ? (
            <Empty>No review is held or stopped by a spend cap.</Empty>
          ) : (
            <JobTable jobs={items} action={(job) => <RestartButton jobId={job.jobId} />} />
          )
        }
      </Loaded>
    </Section>
  );
}

function RestartButton({ jobId }: { jobId: string }) {
  const { client } = useClient();
  const restart = useAction(() => api.reviewing.restartReviewJob(jobId), [queryKeys.jobs(client.id)]);
  return (
    <>
      <button type="button" onClick={() => void restart.run()} disabled={restart.pending}>
        Restart
      </button>
      <ProblemSummary problem={restart.problem} />
    </>
  );
}

/** The tenant's spend in the month per client (needs budgeting; tenant administrators only). */
function TenantSpendSection({ tenantId, month }: { tenantId: string; month: string }) {
  const spend = useQuery({
    queryKey: [...queryKeys.tenantSpend(tenantId), 'client', month],
    queryFn: () => api.spend.tenantSpend(tenantId, { groupBy: 'client', ...monthWindow(month) }),
  });
  // The same list the client switcher reads, so it is usually cached already.
  const clients = useQuery({
    queryKey: [...queryKeys.clients, { limit: 200 }],
    queryFn: () => api.tenancy.listClients({ limit: 200 }),
  });
  const names = new Map(clients.data?.items.map((c) => [c.id, c.displayName]));
  return (
    <Section title="Tenant spend by client">
      <Loaded query={spend}>
        {(report) => (
          <UsageTable
            report={report}
            keyHeader="Client"
            keyName={(id) => <Link to={`/clients/${id}/spend`}>{names.get(id) ?? id}</Link>}
          />
        )}
      </Loaded>
    </Section>
  );
}
