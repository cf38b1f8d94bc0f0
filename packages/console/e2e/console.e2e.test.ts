/**
 * The console in a real browser against a real host: an operator signs in, sets up a client (source
 * control on a fake GitHub, an AI connection on a fake model server, the purpose map, a webhook),
 * a delivery starts a review by Margin's own engine, the job page shows it to the end, a finding is
 * dismissed, the edition is switched and the same pull request is reviewed again; then another pull
 * request is stopped, fails and is restarted, and the rest of the console is used once (filters,
 * crawls, knowledge (a repository, and a wiki on a fake Azure DevOps), members, password, blocks,
 * editing an AI connection, lists longer than one API page). Every main page is checked with
 * axe-core and photographed.
 */

import { billingScenario, delivery, FACTS, postDelivery } from '@margin/server-express/test-kits';
import { ADMIN_PASSWORD, ADMIN_USERNAME, TEST_USER_PASSWORD } from '@margin/server-express/testing';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, chromiumAvailable, launchChromium, screenshot } from './browser.js';
import { type ConsoleHost, startConsoleHost } from './console-host.js';
import { HOSTILE, PROPOSED, PULL_REQUEST } from './review-script.js';

// Outside CI a machine without Chromium skips the suite; CI installs it and must run it.
const runs = chromiumAvailable() || process.env.CI === 'true';
if (!runs) console.warn('console browser suite skipped: no Chromium (node scripts/run.mjs test installs it as root)');

describe.skipIf(!runs)('the management console in Chromium', () => {
  let env: ConsoleHost;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let clientPath: string;
  let webhookSecret: string;
  let listenerUrl: string;
  let jobPath: string;
  let aiConnectionPath: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleHost(), launchChromium()]);
    base = env.host.url;
    context = await browser.newContext({ viewport: { width: 1360, height: 900 }, baseURL: base });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // A script error or a refused resource would otherwise only show as a timeout.
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // Refused calls (the sign-in attempts, the start-up refresh) are logged by Chromium as resource errors.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        pageErrors.push(message.text());
      }
    });
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await screenshot(page, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    if (pageErrors.length) console.error(`errors in the page:\n${pageErrors.join('\n')}`);
    await browser?.close();
    await env?.close();
  });

  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const clientId = () => clientPath.split('/')[2] ?? '';
  /** The job table's rows as their text. */
  const jobRows = () => page.getByRole('table', { name: 'Review jobs' }).locator('tbody tr').allTextContents();
  /** The job page's coverage counts as `{ state in words: files }`, read from the table's row headers. */
  const coverageCounts = async () => {
    const rows = await page.getByRole('table', { name: 'Files by coverage state' }).locator('tbody tr').all();
    return Object.fromEntries(
      await Promise.all(
        rows.map(async (row) => [
          await row.getByRole('rowheader').textContent(),
          await row.locator('td').textContent(),
        ]),
      ),
    );
  };
  /** The job page's summary section. */
  const summary = () => page.getByRole('region', { name: 'Summary', exact: true });

  it('signs in with the keyboard only, explaining a wrong password first', async () => {
    await page.goto('/clients');
    await expect.poll(() => page.url()).toContain('/sign-in?next=%2Fclients');
    await checkPage(page, '01-sign-in');

    // The username field has focus: type, Tab to the password, Enter submits.
    await page.keyboard.type(ADMIN_USERNAME);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid credentials.');

    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    // Back where the deep link pointed.
    await heading('Clients').waitFor();
    expect(new URL(page.url()).pathname).toBe('/clients');
    // Nothing of the session is kept in the browser's storage (strings: this file is type-checked for Node).
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
  });

  it('shows the overview and keeps the session across a reload (refresh cookie, token in memory only)', async () => {
    await page.goto('/');
    await heading('Overview').waitFor();
    await page.getByText('Community').first().waitFor();
    await page.getByRole('heading', { name: 'Health' }).waitFor();
    await page.locator('.card', { hasText: 'Health' }).getByText('ok').first().waitFor();
    await checkPage(page, '02-overview');
  });

  it('creates a client', async () => {
    await page.goto('/clients');
    await page.getByLabel('Name', { exact: true }).fill('Acme');
    await page.getByRole('button', { name: 'Create client' }).click();
    await heading('Acme').waitFor();
    clientPath = new URL(page.url()).pathname;
    await checkPage(page, '03-client');
  });

  it('shows the API’s validation message next to the field it names, and the browser’s own checks alike', async () => {
    // Only the API knows a name of spaces is empty (it trims): its `details[].path` places the message.
    await page.goto('/clients');
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Create client' }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await name.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toBe('displayName is required');

    // A malformed URL is caught before the call, reported in the same place.
    await page.goto(`${clientPath}/scm`);
    const host = page.getByLabel('Host URL', { exact: true });
    await host.fill('not a url');
    await page.getByLabel('Token', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Create connection' }).click();
    expect(await host.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate('document.activeElement?.name')).toBe('hostBaseUrl');
  });

  it('moves by keyboard: focus on the page heading, the skip link, g-then-letter jumps', async () => {
    await page.goto(clientPath);
    await heading('Acme').waitFor();
    // Each page starts keyboard and screen-reader users at its heading.
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('source control');

    const skip = page.getByRole('link', { name: 'Skip to content' });
    await skip.focus();
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('main');

    await page.keyboard.press('g');
    await page.keyboard.press('r');
    await heading('Reviews').waitFor();
    expect(new URL(page.url()).pathname).toBe(`${clientPath}/reviews`);
  });

  it('connects GitHub: create, verify with the result shown, a scope, the reviewer identity, discovery', async () => {
    await page.goto(`${clientPath}/scm`);
    await page.getByLabel('Host URL', { exact: true }).fill(env.github.hostUrl);
    await page.getByLabel('Name', { exact: true }).fill('GitHub Enterprise');
    await page.getByLabel('Token', { exact: true }).fill(env.githubToken);
    await page.getByRole('button', { name: 'Create connection' }).click();
    await heading('GitHub Enterprise').waitFor();

    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The provider accepted the credentials.').waitFor();

    await page.getByLabel('Scope URL', { exact: true }).fill(`${env.github.hostUrl}/acme`);
    await page.getByRole('button', { name: 'Add scope' }).click();
    await page
      .getByRole('cell', { name: `${env.github.hostUrl}/acme` })
      .first()
      .waitFor();

    await page.getByLabel('Find a provider user', { exact: true }).fill('ada');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Use ada' }).click();
    await page.getByText('Reviews are posted as').waitFor();

    await page
      .getByLabel('Scope', { exact: true })
      .selectOption({ label: `${env.github.hostUrl}/acme (GitHub, GitHub Enterprise)` });
    await page.getByLabel('Project', { exact: true }).selectOption('acme');
    await page.getByLabel('Repository', { exact: true }).selectOption(env.githubRepositoryId);
    await page.getByRole('heading', { name: /^Branches of/ }).waitFor();
    await checkPage(page, '04-source-control');
    // The token never reaches the page.
    expect(await page.content()).not.toContain(env.githubToken);
  });

  it('connects an AI model: probe, discover, create, verify (failure in words), activate', async () => {
    await page.goto(`${clientPath}/ai`);
    await page.getByRole('link', { name: 'New AI connection' }).click();
    await heading('New AI connection').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Local models');
    await page.getByLabel('Provider kind', { exact: true }).selectOption('kindCompatible');
    await page.getByLabel('Base URL', { exact: true }).fill(env.models.apiRoot);
    await page.getByLabel('API key', { exact: true }).fill('sk-local-test-key');

    await page.getByRole('button', { name: 'Probe' }).click();
    await page.getByText(/Probe:/).waitFor();
    expect(await page.locator('.result-ok').textContent()).toContain('succeeded');

    await page.getByRole('button', { name: 'Discover models' }).click();
    await page.getByRole('checkbox', { name: /qwen2\.5-coder:32b/ }).check();
    await page.getByLabel('Model for reviewDefault', { exact: true }).selectOption('qwen2.5-coder:32b');
    await checkPage(page, '05-new-ai-connection');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await heading('Local models').waitFor();
    aiConnectionPath = new URL(page.url()).pathname;
    expect(await page.content()).not.toContain('sk-local-test-key');

    // The form has no price fields (a self-hosted model usually costs nothing per token): prices set
    // through the API give the review a cost for the job page to show.
    const [, , clientId] = clientPath.split('/');
    const connectionPath = `/clients/${clientId}/ai-connections/${new URL(page.url()).pathname.split('/').at(-1)}`;
    const admin = await env.host.admin();
    const { configuredModels } = (await admin.get(connectionPath)).body as { configuredModels: object[] };
    const priced = await admin.patch(connectionPath, {
      configuredModels: configuredModels.map((m) => ({ ...m, inputCostPer1MUsd: 1, outputCostPer1MUsd: 4 })),
    });
    expect(priced.status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: '$1.00 / $4.00' }).waitFor();

    // A failing model server: the category in words.
    env.models.failWith({ status: 401, json: { error: { message: 'bad key' } } });
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The credentials were refused: check the API key.').waitFor();
    env.models.failWith(undefined);

    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Verification:').waitFor();
    await page.locator('.result-ok').waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('button', { name: 'Deactivate' }).waitFor();
    await checkPage(page, '06-ai-connection');
  });

  it('names a logical model and maps reviewDefault; unmapped purposes are flagged', async () => {
    await page.goto(`${clientPath}/models`);
    await heading('Models and purposes').waitFor();
    await page.getByText('8 of 8 purposes are unmapped').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('review-main');
    await page.getByLabel('Connection', { exact: true }).selectOption({ label: 'Local models' });
    await page.getByLabel('Model', { exact: true }).selectOption({ label: 'qwen2.5-coder:32b (chat)' });
    await page.getByRole('button', { name: 'Create logical model' }).click();
    await page.getByRole('cell', { name: 'review-main', exact: true }).waitFor();
    await page.getByLabel('Logical model for reviewDefault', { exact: true }).selectOption('review-main');
    await page.getByText('7 of 8 purposes are unmapped').waitFor();
    await checkPage(page, '07-models-and-purposes');
  });

  it('creates a webhook whose secret is shown once, copyable, then gone from the page', async () => {
    await page.goto(`${clientPath}/webhooks`);
    await page
      .getByLabel('Scope', { exact: true })
      .selectOption({ label: `${env.github.hostUrl}/acme (GitHub, GitHub Enterprise)` });
    await page.getByLabel('Project', { exact: true }).selectOption('acme');
    await page.getByRole('checkbox', { name: /uploader/ }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();

    const secretBox = page.getByRole('textbox', { name: 'Webhook secret' });
    webhookSecret = await secretBox.inputValue();
    expect(webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    listenerUrl = (await page.getByTestId('listener-url').textContent()) ?? '';
    expect(listenerUrl).toMatch(/\/webhooks\/v1\/providers\/gitHostA\/[0-9a-f]{32}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(webhookSecret);
    await checkPage(page, '08-webhook-created');

    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.content()).not.toContain(webhookSecret);
    expect(await page.evaluate('JSON.stringify({ ...localStorage, ...sessionStorage })')).not.toContain(webhookSecret);
  });

  it('receives a delivery, records it with its outcome, and the review runs to completion on the job page', async () => {
    // The recorded delivery, naming the revision the GitHub fake serves.
    const opened = delivery('github', FACTS.github.opened, webhookSecret, {
      edit: (payload) => {
        payload.pull_request.head.sha = PULL_REQUEST.headSha;
        payload.pull_request.base.sha = PULL_REQUEST.baseSha;
      },
    });
    const sent = await postDelivery(listenerUrl, opened);
    expect(sent.body).toEqual({ status: 'accepted' });

    await page.goto(`${clientPath}/webhooks`);
    await page.getByRole('link', { name: 'acme' }).click();
    await page.getByRole('cell', { name: /accepted/ }).waitFor();
    await checkPage(page, '09-webhook-deliveries');

    await page.goto(`${clientPath}/reviews`);
    const jobLink = page.getByRole('link', { name: /#42/ });
    await jobLink.waitFor({ timeout: 20_000 });
    await jobLink.click();
    jobPath = new URL(page.url()).pathname;
    // Live progress while it runs (the three skipped files are done; the model's answer is held),
    // then the result without reloading.
    await page.getByText('Reviewed 3 of 5 files…').waitFor();
    await checkPage(page, '10-job-running');
    env.review.release();
    await page.locator('.badge', { hasText: 'completed' }).first().waitFor({ timeout: 30_000 });
  });

  /** A finding's entry on the job page, in the group of its file. */
  const findingIn = (file: string, message: string) =>
    page
      .getByRole('region', { name: `Findings in ${file}` })
      .getByRole('listitem')
      .filter({ hasText: message });

  it('shows findings by file with publication and reason, coverage, usage and the protocol', async () => {
    await page.getByRole('heading', { name: 'Findings (6)' }).waitFor();
    await page.getByText('1 published · 2 summaryOnly · 1 suppressed · 2 dropped').waitFor();
    // Each finding in its file's group, with its state and why: the reason in words (and its code), or
    // the thread it was posted as.
    const shown: Array<[finding: (typeof PROPOSED)[keyof typeof PROPOSED], state: string, why: string]> = [
      [PROPOSED.posted, 'Posted as a review thread.', '(thread '],
      [
        PROPOSED.repeated,
        'Held back: it repeats another finding, an earlier post, an existing thread or a dismissed finding.',
        'Reason: It repeats another finding of this review. (duplicateInRun)',
      ],
      [
        PROPOSED.style,
        'Named in the summary only, not posted as a thread.',
        'Reason: Maintainability, documentation and test points go to the summary, not into threads. (categoryPolicy)',
      ],
      [
        PROPOSED.doubted,
        'Named in the summary only, not posted as a thread.',
        'Reason: The verifying model was not convinced (a score of 4 or 5). (lowVerifierScore)',
      ],
      [
        PROPOSED.rejected,
        'Held back: it did not pass the checks (verification, anchoring, claim checks).',
        'Reason: The verifying model rejected it (a score of 3 or less). (verifierRejected)',
      ],
      [
        PROPOSED.invented,
        'Held back: it did not pass the checks (verification, anchoring, claim checks).',
        'Reason: It names a file that is not part of this change. (unknownPath)',
      ],
    ];
    for (const [finding, state, why] of shown) {
      const text = await findingIn(finding.path, finding.message).textContent();
      expect(text).toContain(finding.title);
      expect(text).toContain(state);
      expect(text).toContain(why);
    }
    expect(await findingIn(PROPOSED.doubted.path, PROPOSED.doubted.message).textContent()).toContain(
      'verifier score 5 of 10',
    );
    await findingIn(PROPOSED.posted.path, PROPOSED.posted.message).locator('.suggestion').waitFor();
    await page.locator('.summary', { hasText: 'Total ignores the discount' }).waitFor();

    // The coverage manifest: every changed file with its state and the reason in words.
    const manifest = page.getByRole('table', { name: 'Coverage manifest' });
    const coverage: Record<string, string> = {};
    for (const row of await manifest.locator('tbody tr').all()) {
      const [path = '', state = '', reason = ''] = await row.locator('td').allTextContents();
      coverage[path] = `${state}: ${reason}`;
    }
    expect(coverage).toEqual({
      'assets/logo.png': 'Skipped: A binary file. (binary)',
      'pnpm-lock.yaml': 'Skipped: A lock file. (lockFile)',
      'src/billing.ts': 'Reviewed: —',
      'src/legacy.ts': 'Skipped: Deleted: nothing to review. (deleteOnly)',
      'src/tax.ts': 'Reviewed: —',
    });
    expect(await coverageCounts()).toEqual({
      Reviewed: '2',
      'Partly reviewed': '0',
      'Carried forward from an earlier revision': '0',
      Skipped: '3',
      'Review failed': '0',
    });
    // Fields the console has no column of are shown as they come.
    await manifest.getByRole('columnheader', { name: 'tier' }).waitFor();
    await page.getByText('tokensApproximate', { exact: true }).waitFor();

    // Usage and cost as the engine recorded them: the review's model and the verifier's.
    const jobId = jobPath.split('/').at(-1) ?? '';
    const { usage } = (await (await env.host.admin()).get(`/reviewing/jobs/${jobId}/status`)).body as {
      usage: { estimatedCostUsd: number };
    };
    expect(usage.estimatedCostUsd).toBeGreaterThan(0);
    const cost = usage.estimatedCostUsd.toLocaleString('en-US', {
      style: 'currency',
      currency: 'USD',
      maximumFractionDigits: 4,
    });
    await page.locator('dd', { hasText: cost }).first().waitFor();
    const usageTable = page.getByRole('table', { name: 'Usage by model and purpose' });
    await usageTable.getByRole('cell', { name: 'reviewLowEffort', exact: true }).waitFor();
    await usageTable.getByRole('cell', { name: 'reviewVerification', exact: true }).waitFor();

    // The protocol: every stage of the engine, one chunk reviewed and its five findings verified.
    await expect
      .poll(async () => new Set(await page.locator('.pass-head .mono').allTextContents()))
      .toEqual(new Set(['resolve', 'collect', 'plan', 'review', 'verify', 'filter', 'summarize', 'publish']));
    await page.getByText('Review chunk 1 of 1', { exact: true }).waitFor();
    await page.getByText('Verify 5 findings', { exact: true }).waitFor();
    await checkPage(page, '11-job');

    // Filtered to model calls: the review's call and its answer, and the verifier's call.
    await page.getByLabel('Event category', { exact: true }).selectOption('ai-call');
    await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe('ai-call');
    await expect.poll(() => page.locator('.events .tag').allTextContents()).toEqual(Array(3).fill('ai-call'));
    expect(await page.locator('.events .mono').allTextContents()).toEqual(['chat', 'answer.read', 'chat']);
  });

  it('renders the review summary as markdown: its heading, its lists, its code, the fold’s title', async () => {
    await page.goto(jobPath);
    await summary().getByRole('heading', { level: 3, name: 'Margin review' }).waitFor();
    // The posted finding, then the two kept for the summary: two lists, the second under the title
    // of the fold it has on the pull request (raw HTML is not rendered, its title is kept as text).
    const lists = summary().getByRole('list');
    expect(await lists.count()).toBe(2);
    expect(await lists.nth(0).getByRole('listitem').allTextContents()).toEqual([
      `error src/billing.ts:42 — ${PROPOSED.posted.title}`,
    ]);
    const notPosted = await lists.nth(1).getByRole('listitem').allTextContents();
    expect(notPosted.sort()).toEqual([
      expect.stringMatching(new RegExp(`^warning src/billing\\.ts:50 — ${PROPOSED.doubted.title} — `)),
      expect.stringMatching(new RegExp(`^warning src/tax\\.ts:2 — ${PROPOSED.style.title} — `)),
    ]);
    await summary().locator('strong', { hasText: 'Not posted as comments' }).waitFor();
    expect(await summary().locator('code').allTextContents()).toEqual(
      expect.arrayContaining(['src/billing.ts:42', 'src/billing.ts:50', 'src/tax.ts:2']),
    );
    expect(await summary().textContent()).not.toMatch(/<\/?(details|summary)>/);
    await checkPage(page, '11c-job-summary');
  });

  it('pages the protocol with the API’s cursor, the page and the category in the URL', async () => {
    // Three passes a page instead of the API's default, so this short review spans several pages.
    const threeAPage = (route: Route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '3');
      return route.continue({ url: url.toString() });
    };
    await page.route('**/api/jobs/*/protocol*', threeAPage);
    try {
      await page.goto(jobPath);
      const pager = page.getByRole('navigation', { name: 'Protocol pages' });
      const stages = new Set<string>();
      for (let n = 1; ; n++) {
        await pager.getByText(`Page ${n}`, { exact: true }).waitFor();
        const shown = await page.locator('.pass-head .mono').allTextContents();
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.length).toBeLessThanOrEqual(3);
        for (const stage of shown) stages.add(stage);
        const next = pager.getByRole('button', { name: 'Next page' });
        if (await next.isDisabled()) break;
        await next.click();
        expect(n).toBeLessThan(10);
      }
      expect(stages).toEqual(
        new Set(['resolve', 'collect', 'plan', 'review', 'verify', 'filter', 'summarize', 'publish']),
      );
      await checkPage(page, '11b-job-protocol-last-page');

      // Another category starts at its first page; its pages keep the category.
      await page.getByLabel('Event category', { exact: true }).selectOption('ai-call');
      await pager.getByText('Page 1', { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('protocolCursor')).toBeNull();
      await pager.getByRole('button', { name: 'Next page' }).click();
      await pager.getByText('Page 2', { exact: true }).waitFor();
      const url = new URL(page.url());
      expect(url.searchParams.get('category')).toBe('ai-call');
      expect(url.searchParams.get('protocolCursor')).toBeTruthy();
      // The URL alone brings the same page back.
      await page.reload();
      await pager.getByText('Page 2', { exact: true }).waitFor();
      expect(await page.getByLabel('Event category', { exact: true }).inputValue()).toBe('ai-call');
    } finally {
      await page.unroute('**/api/jobs/*/protocol*', threeAPage);
    }
  });

  it('dismisses a finding from the job page and lists it', async () => {
    await page.goto(jobPath);
    await page.getByRole('button', { name: `Dismiss finding: ${PROPOSED.style.message}` }).click();
    await page.getByText('Dismissed: later reviews suppress similar findings.').waitFor();
    // Still marked after a reload: the page compares the findings with the client's dismissals.
    await page.reload();
    await page.getByRole('heading', { name: 'Findings (6)' }).waitFor();
    await page.getByText('Dismissed: later reviews suppress similar findings.').waitFor();
    await page.goto(`${clientPath}/dismissals`);
    await page.getByRole('cell', { name: PROPOSED.style.message }).waitFor();
    await checkPage(page, '12-dismissals');
  });

  it('reads dismissals past the API’s first page, on the job page and in the list', async () => {
    // 55 newer dismissals push the one made above past the first API page (newest first, 50 a page).
    const admin = await env.host.admin();
    for (let i = 1; i <= 55; i++) {
      const made = await admin.post(`/clients/${clientId()}/reviewing/dismiss-finding`, {
        findingMessage: `Bulk dismissal ${String(i).padStart(2, '0')}, about nothing in this change.`,
        filePath: `docs/bulk-${i}.md`,
        label: 'bulk',
      });
      expect(made.status).toBeLessThan(300);
    }
    await page.goto(jobPath);
    await page.getByRole('heading', { name: 'Findings (6)' }).waitFor();
    await findingIn(PROPOSED.style.path, PROPOSED.style.message)
      .getByText('Dismissed: later reviews suppress similar findings.')
      .waitFor();

    await page.goto(`${clientPath}/dismissals`);
    const pager = page.getByRole('navigation', { name: 'Dismissals pages' });
    const rows = page.getByRole('table', { name: 'Dismissed findings' }).locator('tbody tr');
    await pager.getByText('Page 1', { exact: true }).waitFor();
    expect(await rows.count()).toBe(25);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await pager.getByText('Page 2', { exact: true }).waitFor();
    await pager.getByRole('button', { name: 'Next page' }).click();
    await pager.getByText('Page 3', { exact: true }).waitFor();
    await page.getByRole('cell', { name: PROPOSED.style.message }).waitFor();
    expect(await rows.count()).toBe(6);
    expect(await pager.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    expect(new URL(page.url()).searchParams.get('dismissalsPage')).toBe('3');
    await page.reload();
    await page.getByRole('cell', { name: PROPOSED.style.message }).waitFor();
    await checkPage(page, '12b-dismissals-page-3');
  });

  it('shows this month’s token usage after the review, and the budget refused without budgeting', async () => {
    await page.goto(`${clientPath}/spend`);
    await heading('Spend').waitFor();
    await page.getByRole('img', { name: /^Tokens per day/ }).waitFor();
    // The delivery's review called the model: rows per purpose the engine asked for, and per model,
    // both adding up to the same totals.
    const byPurpose = page.getByRole('table', { name: /^Usage by purpose/ });
    const byModel = page.getByRole('table', { name: /^Usage by model/ });
    await byPurpose.locator('tbody tr').first().waitFor();
    await byModel.locator('tbody tr').first().waitFor();
    expect(await byPurpose.locator('tbody th').allTextContents()).toContain('reviewLowEffort');
    const purposeTotals = await byPurpose.locator('tfoot tr').textContent();
    expect(purposeTotals).toMatch(/^Total[1-9]/);
    expect(await byModel.locator('tfoot tr').textContent()).toBe(purposeTotals);
    // Community: the budget and the tenant's spend are refused (409 license_required), said in words.
    await page
      .getByRole('region', { name: 'Budget' })
      .getByText(/change the edition under Licensing/)
      .waitFor();
    expect(await page.getByRole('form', { name: 'Spend caps' }).count()).toBe(0);
  });

  it('switches the edition to Commercial, showing what each capability does', async () => {
    await page.goto('/admin/licensing');
    await heading('Licensing').waitFor();
    await page.getByRole('cell', { name: /^Scheduled crawling/ }).waitFor();
    await page.getByLabel('Edition', { exact: true }).selectOption('Commercial');
    await page.getByRole('button', { name: 'Save licensing' }).click();
    await page.getByText('Licensing saved.').waitFor();
    await page.locator('.edition', { hasText: 'Commercial' }).waitFor();
    await checkPage(page, '13-licensing');

    // Crawls open up with the capability.
    await page.goto(`${clientPath}/crawls`);
    await page.getByRole('heading', { name: 'Add a crawl' }).waitFor();
  });

  it('shows the audit trail of the changes made so far, newest first, for the installation or one tenant', async () => {
    await page.goto('/admin/audit');
    await heading('Audit trail').waitFor();
    const actions = page.locator('tbody td.mono');
    await page.getByRole('cell', { name: 'licensing.updated' }).waitFor();
    expect(await actions.first().textContent()).toBe('licensing.updated');
    await page.getByRole('cell', { name: 'webhookConfiguration.created' }).first().waitFor();
    await checkPage(page, '13b-audit');
    // A tenant's trail holds its own changes; the installation-wide licensing change is not one.
    await page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'System' });
    await page.getByRole('cell', { name: 'webhookConfiguration.created' }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'licensing.updated' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('tenant')).toBeTruthy();
  });

  it('sets a client’s spend caps (Commercial), refusing a soft cap above its hard cap, and resets the period', async () => {
    await page.goto(`${clientPath}/spend`);
    await heading('Spend').waitFor();
    const caps = page.getByRole('form', { name: 'Spend caps' });
    await caps.getByLabel('Monthly soft cap (US$)').fill('60');
    await caps.getByLabel('Monthly hard cap (US$)').fill('50');
    await caps.getByRole('button', { name: 'Save caps' }).click();
    await caps.getByRole('alert').waitFor();
    await caps.getByLabel('Monthly soft cap (US$)').fill('40');
    await caps.getByRole('button', { name: 'Save caps' }).click();
    await caps.getByText('Caps saved.').waitFor();
    const budget = page.getByRole('region', { name: 'Budget' });
    await budget.locator('dd', { hasText: '50.00' }).waitFor();
    await budget.getByText('Within its caps').waitFor();
    // The review's spend counts until a reset starts a new period; the caps stay.
    const spent = budget.locator('dt:has-text("Spent this period") + dd');
    expect(await spent.textContent()).not.toBe('$0.00');
    await budget.getByRole('button', { name: 'Reset the period' }).click();
    await budget.getByRole('button', { name: 'Reset now' }).click();
    await budget.locator('dt:has-text("Spent this period") + dd', { hasText: /^\$0\.00$/ }).waitFor();
    await budget.locator('dd', { hasText: '50.00' }).waitFor();
    // A platform administrator also sees the tenant's spend per client, the client by its name.
    await page
      .getByRole('table', { name: /^Usage by client/ })
      .getByRole('link', { name: 'Acme' })
      .waitFor();
    await checkPage(page, '13c-spend');
  });

  it('shows another month’s usage, and restarts a review the monthly hard cap held once the cap is raised', async () => {
    await page.getByLabel('Month', { exact: true }).fill('2020-01');
    await page.getByRole('region', { name: 'Usage by day' }).getByText('No model calls this month.').waitFor();
    await env.github.loadPullRequest(billingScenario(47, 'c'));
    const admin = await env.host.admin();
    const budgetPath = `/admin/clients/${clientId()}/budget`;
    expect((await admin.put(budgetPath, { monthlyHardCapUsd: 0 })).status).toBe(200);
    const submitted = await admin.post(`/clients/${clientId()}/reviewing/jobs/by-coordinates`, {
      providerScopePath: `${env.github.hostUrl}/acme`,
      providerProjectKey: 'acme',
      repositoryId: env.githubRepositoryId,
      pullRequestId: 47,
    });
    expect(submitted.body).toMatchObject({ outcome: 'submitted' });
    const held = page.getByRole('region', { name: 'Held or stopped by the budget' });
    const row = held.getByRole('row', { name: /#47/ });
    // The list is read when the page opens: reload until the worker has held the job.
    for (let tries = 0; tries < 40 && (await row.count()) === 0; tries++) {
      await page.reload();
      await heading('Spend').waitFor();
      await page.waitForTimeout(250);
    }
    expect(await row.textContent()).toMatch(/budget ?held/i);
    expect((await admin.put(budgetPath, { monthlySoftCapUsd: 40, monthlyHardCapUsd: 50 })).status).toBe(200);
    await row.getByRole('button', { name: 'Restart' }).click();
    await held.getByText('No review is held or stopped by a spend cap.').waitFor();
    expect((await admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`)).body.attempt).toBe(2);
  });

  it('submits a review by coordinates and follows it to its result', async () => {
    await page.goto(`${clientPath}/reviews/submit`);
    await page.getByLabel('Scope URL', { exact: true }).fill(`${env.github.hostUrl}/acme`);
    await page.getByLabel('Project', { exact: true }).fill('acme');
    await page.getByLabel('Repository id', { exact: true }).fill(env.githubRepositoryId);
    await page.getByLabel('Pull request number', { exact: true }).fill('42');
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.getByText('The review is queued.').waitFor();
    await page.getByRole('link', { name: 'Open the review' }).click();
    await page.locator('.badge', { hasText: 'completed' }).first().waitFor({ timeout: 30_000 });
    await page.getByText('byCoordinates, attempt 1').waitFor();
    // The same revision again: the reviewed files are carried forward (no model call, nothing
    // posted twice), and the summary says the finding posted by the first review is still open.
    await page.getByRole('heading', { name: 'Findings (0)' }).waitFor();
    for (const path of ['src/billing.ts', 'src/tax.ts']) {
      const row = page.getByRole('row', { name: new RegExp(path.replace('.', '\\.')) });
      expect(await row.textContent()).toContain('Carried forward from an earlier revision');
    }
    await page.getByText(/1 still open from earlier reviews/).waitFor();
  });

  it('counts the files of each coverage state in a table, a row per state', async () => {
    // Still on the review of the same revision: its reviewed files were carried forward.
    const counts = page.getByRole('table', { name: 'Files by coverage state' });
    expect(await counts.getByRole('columnheader').allTextContents()).toEqual(['State', 'Files']);
    expect(await coverageCounts()).toEqual({
      Reviewed: '0',
      'Partly reviewed': '0',
      'Carried forward from an earlier revision': '2',
      Skipped: '3',
      'Review failed': '0',
    });
    await checkPage(page, '13a-job-carried-forward');
  });

  it('stops a running review, and restarts one that failed', async () => {
    await env.github.loadPullRequest(billingScenario(43, 'f'));
    const admin = await env.host.admin();
    const submit = async () => {
      const submitted = await admin.post(`/clients/${clientId()}/reviewing/jobs/by-coordinates`, {
        providerScopePath: `${env.github.hostUrl}/acme`,
        providerProjectKey: 'acme',
        repositoryId: env.githubRepositoryId,
        pullRequestId: 43,
      });
      expect(submitted.body).toMatchObject({ outcome: 'submitted' });
      return `${clientPath}/reviews/${submitted.body.jobId}`;
    };
    const status = page.locator('.pairs dd .badge').first();

    // The model's answer is held: the review runs until it is stopped.
    env.review.hold();
    await page.goto(await submit());
    await page.getByText('Reviewed 3 of 5 files…').waitFor();
    await page.getByRole('button', { name: 'Stop review' }).click();
    await page.getByRole('button', { name: 'Stop now' }).click();
    await expect.poll(() => status.textContent()).toBe('stopped');
    expect(await page.getByRole('button', { name: /Stop review|Restart review/ }).count()).toBe(0);
    env.review.release();

    // The model refuses the key: the review fails and may be restarted once the model answers again.
    env.models.failWith({ status: 401, json: { error: { message: 'bad key' } } });
    await page.goto(await submit());
    const restart = page.getByRole('button', { name: 'Restart review' });
    await restart.waitFor({ timeout: 30_000 });
    env.models.failWith(undefined);
    expect(await status.textContent()).toBe('failed');
    await restart.click();
    await page.getByText('restart, attempt 2').waitFor();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('completed');
    await page.getByRole('heading', { name: 'Findings (6)' }).waitFor();
    await checkPage(page, '13b-job-restarted');
  });

  it('filters the job list by status, repository and pull request, the filters in the URL', async () => {
    await page.goto(`${clientPath}/reviews`);
    // #42 twice, #43 twice (one stopped, one failed and restarted), #47 (held by the budget, restarted).
    await expect.poll(async () => (await jobRows()).length).toBe(5);

    await page.getByLabel('Status', { exact: true }).selectOption('stopped');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?status=stopped');
    await expect.poll(jobRows).toEqual([expect.stringContaining('#43')]);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Repository id', { exact: true }).fill(env.githubRepositoryId);
    await page.getByLabel('Pull request', { exact: true }).fill('42');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('pullRequestId')).toBe('42');
    await expect.poll(async () => (await jobRows()).length).toBe(2);
    expect((await jobRows()).every((row) => row.includes('#42'))).toBe(true);

    // The URL alone filters: a reload (or a link) shows the same list with the form filled in.
    await page.reload();
    await expect.poll(async () => (await jobRows()).length).toBe(2);
    expect(await page.getByLabel('Pull request', { exact: true }).inputValue()).toBe('42');
    expect(await page.getByLabel('Repository id', { exact: true }).inputValue()).toBe(env.githubRepositoryId);
    await checkPage(page, '13c-reviews-filtered');
  });

  it('renders what a model wrote into the summary inert: no script, no javascript: link', async () => {
    await env.github.loadPullRequest(billingScenario(44, 'a'));
    env.review.propose(HOSTILE.script, HOSTILE.links);
    try {
      const admin = await env.host.admin();
      const submitted = await admin.post(`/clients/${clientId()}/reviewing/jobs/by-coordinates`, {
        providerScopePath: `${env.github.hostUrl}/acme`,
        providerProjectKey: 'acme',
        repositoryId: env.githubRepositoryId,
        pullRequestId: 44,
      });
      expect(submitted.body).toMatchObject({ outcome: 'submitted' });
      await page.goto(`${clientPath}/reviews/${submitted.body.jobId}`);
      await page.locator('.pairs dd .badge', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    } finally {
      env.review.propose(...Object.values(PROPOSED));
    }
    // Both titles reached the summary; the script tag is dropped and never ran.
    await summary()
      .getByText(/Discount lost/)
      .waitFor();
    expect(await summary().locator('script').count()).toBe(0);
    expect(await page.evaluate('window.marginPwned')).toBeUndefined();
    // The javascript: address is no link, its words stay; the https one opens apart from this page.
    expect(await summary().locator('a').count()).toBe(1);
    await summary().getByText('Run it').waitFor();
    const spec = summary().getByRole('link', { name: 'the spec' });
    expect(await spec.getAttribute('href')).toBe('https://example.com/s');
    expect(await spec.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await spec.getAttribute('target')).toBe('_blank');
    await checkPage(page, '13c2-job-summary-inert');
  });

  it('creates a crawl configuration (Commercial) and a code-knowledge source', async () => {
    await page.goto(`${clientPath}/crawls`);
    const crawl = page.getByRole('form', { name: 'Add a crawl' });
    await crawl
      .getByLabel('Scope', { exact: true })
      .selectOption({ label: `${env.github.hostUrl}/acme (GitHub, GitHub Enterprise)` });
    await crawl.getByLabel('Project', { exact: true }).selectOption('acme');
    await crawl.getByRole('checkbox', { name: /uploader/ }).check();
    // Only release branches: the crawler finds the open pull requests (they target main) out of scope.
    await crawl.getByLabel('Target branches', { exact: true }).fill('release/*');
    await crawl.getByLabel('Interval (seconds)', { exact: true }).fill('600');
    await crawl.getByRole('button', { name: 'Create crawl' }).click();
    const configs = page.getByRole('table', { name: 'Crawl configurations' });
    await configs.getByRole('cell', { name: '600 s' }).waitFor();
    expect(await configs.locator('tbody tr').first().textContent()).toContain('acme');
    await checkPage(page, '13d-crawl-created');

    await page.goto(`${clientPath}/knowledge`);
    const source = page.getByRole('form', { name: 'Add a knowledge source' });
    await source.getByLabel('Name', { exact: true }).fill('Uploader code');
    await source
      .getByLabel('Scope', { exact: true })
      .selectOption({ label: `${env.github.hostUrl}/acme (GitHub, GitHub Enterprise)` });
    await source.getByLabel('Project', { exact: true }).selectOption('acme');
    await source.getByLabel('Repository', { exact: true }).selectOption(env.githubRepositoryId);
    await source.getByRole('button', { name: 'Add source' }).click();
    await page
      .getByRole('table', { name: 'Knowledge sources' })
      .getByRole('cell', { name: 'Uploader code', exact: true })
      .waitFor();
    await checkPage(page, '13e-knowledge-source-created');
    // Its branch's index, refreshed on request, and the search box over the client's sources.
    const row = page.getByRole('table', { name: 'Knowledge sources' }).getByRole('row', { name: /Uploader code/ });
    await row.getByText(/: neverIndexed/).waitFor();
    await row.getByRole('button', { name: 'Refresh Uploader code' }).click();
    await row.getByText(/: (queued|indexing|ready|failed)/).waitFor();
    const search = page.getByRole('form', { name: 'Search code knowledge' });
    await search.getByLabel('Query', { exact: true }).fill('retry');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    await page
      .getByRole('region', { name: 'Search' })
      .getByText(/Nothing matches\.|by (lexical|semantic|symbol)/)
      .first()
      .waitFor();
  });

  it('connects Azure DevOps and adds its project wiki as a knowledge source, indexed on refresh', async () => {
    await page.goto(`${clientPath}/scm`);
    await page.getByLabel('Provider', { exact: true }).selectOption({ label: 'Azure DevOps' });
    await page.getByLabel('Host URL', { exact: true }).fill(env.ado.orgUrl);
    await page.getByLabel('Name', { exact: true }).fill('Contoso DevOps');
    await page.getByLabel('Token', { exact: true }).fill(env.adoToken);
    await page.getByRole('button', { name: 'Create connection' }).click();
    await heading('Contoso DevOps').waitFor();
    await page.getByLabel('Scope URL', { exact: true }).fill(env.ado.orgUrl);
    await page.getByRole('button', { name: 'Add scope' }).click();
    await page.getByRole('cell', { name: env.ado.orgUrl }).first().waitFor();

    await page.goto(`${clientPath}/knowledge`);
    const source = page.getByRole('form', { name: 'Add a knowledge source' });
    const scope = source.getByLabel('Scope', { exact: true });
    // Only an Azure DevOps scope offers wikis.
    await scope.selectOption({ label: `${env.github.hostUrl}/acme (GitHub, GitHub Enterprise)` });
    await source.getByLabel('Project', { exact: true }).waitFor();
    expect(await source.getByLabel('Kind', { exact: true }).count()).toBe(0);
    await source.getByLabel('Name', { exact: true }).fill('Team wiki');
    await scope.selectOption({ label: `${env.ado.orgUrl} (Azure DevOps, Contoso DevOps)` });
    await source.getByLabel('Project', { exact: true }).selectOption({ label: 'Web Platform' });
    await source.getByLabel('Kind', { exact: true }).selectOption({ label: 'Wiki' });
    await source.getByLabel('Wiki', { exact: true }).selectOption({ label: 'Web-Platform.wiki' });
    await checkPage(page, '13f-knowledge-wiki-chosen');
    await source.getByRole('button', { name: 'Add source' }).click();
    const row = page.getByRole('table', { name: 'Knowledge sources' }).getByRole('row', { name: /Team wiki/ });
    await row.getByRole('cell', { name: 'adoWiki', exact: true }).waitFor();
    expect(await row.textContent()).toContain('Web-Platform.wiki');
    await row.getByText('wikiMaster: neverIndexed').waitFor();
    await row.getByRole('button', { name: 'Refresh Team wiki' }).click();
    // The fake serves one page on wikiMaster: the wiki's repository is read and indexed.
    await row.getByText(/wikiMaster: ready \(1 files/).waitFor();
    // Back to a repository when the scope changes.
    await scope.selectOption({ label: `${env.github.hostUrl}/acme (GitHub, GitHub Enterprise)` });
    expect(await source.getByLabel('Kind', { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(env.adoToken);
  });

  it('creates a personal access token shown once', async () => {
    await page.goto('/account');
    await page.getByLabel('Label', { exact: true }).fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByRole('textbox', { name: 'Token “ci”' }).inputValue();
    expect(token).toMatch(/^mgn_[0-9a-f]{48}$/);
    await checkPage(page, '14-account');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.content()).not.toContain(token);
  });

  it('gives a user a role on the client and takes it away again', async () => {
    const dana = await env.host.createUser('dana');
    await page.goto(clientPath);
    await page.getByText(/^No members with an explicit role/).waitFor();
    await page.getByLabel('User', { exact: true }).selectOption(dana.id);
    await page.getByLabel('Role', { exact: true }).selectOption('ClientUser');
    await page.getByRole('button', { name: 'Give role' }).click();
    const row = page.getByRole('table', { name: 'Members of Acme' }).getByRole('row', { name: /dana/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('ClientUser');
    await checkPage(page, '14b-members');
    await page.getByRole('button', { name: 'Remove dana' }).click();
    await page.getByRole('button', { name: 'Remove now' }).click();
    await page.getByText(/^No members with an explicit role/).waitFor();
  });

  it('changes a password: a wrong current one is named at its field, then the new one signs in', async () => {
    await env.host.createUser('erin');
    const other = await browser.newContext({ viewport: { width: 1360, height: 900 }, baseURL: base });
    try {
      const tab = await other.newPage();
      tab.setDefaultTimeout(15_000);
      await tab.goto('/account');
      await tab.getByLabel('Username', { exact: true }).fill('erin');
      await tab.getByLabel('Password', { exact: true }).fill(TEST_USER_PASSWORD);
      await tab.keyboard.press('Enter');
      await tab.getByRole('heading', { level: 1, name: 'Password and tokens' }).waitFor();

      const current = tab.getByLabel('Current password', { exact: true });
      await current.fill('not-my-password');
      await tab.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
      await tab.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => current.getAttribute('aria-invalid')).toBe('true');
      await tab.getByText('Not the current password.').waitFor();

      await current.fill(TEST_USER_PASSWORD);
      await tab.getByRole('button', { name: 'Change password' }).click();
      await tab.getByText('Password changed.', { exact: true }).waitFor();
      expect(await current.inputValue()).toBe('');
      await checkPage(tab, '14c-password-changed');
      // The change ends every session the API knows of; this tab signed in again, so a reload keeps it.
      await tab.reload();
      await tab.getByRole('heading', { level: 1, name: 'Password and tokens' }).waitFor();
    } finally {
      await other.close();
    }
    const signIn = (password: string) => env.host.api.post('/auth/login', { username: 'erin', password });
    expect((await signIn('a brand new passphrase')).status).toBe(200);
    expect((await signIn(TEST_USER_PASSWORD)).status).toBe(401);
  });

  it('blocks a pull request, which refuses its reviews, and unblocks it', async () => {
    await page.goto(`${clientPath}/blocked`);
    await page.getByText('No pull request is blocked.').waitFor();
    const form = page.getByRole('form', { name: 'Block a pull request' });
    await form.getByLabel('Scope URL', { exact: true }).fill(`${env.github.hostUrl}/acme`);
    await form.getByLabel('Project', { exact: true }).fill('acme');
    await form.getByLabel('Repository id', { exact: true }).fill(env.githubRepositoryId);
    await form.getByLabel('Pull request number', { exact: true }).fill('43');
    await form.getByLabel('Reason', { exact: true }).fill('Release freeze');
    await form.getByRole('button', { name: 'Block', exact: true }).click();
    await page
      .getByRole('table', { name: 'Blocked pull requests' })
      .getByRole('cell', { name: 'Release freeze' })
      .waitFor();
    await checkPage(page, '14d-pull-request-blocked');

    const admin = await env.host.admin();
    const refused = await admin.post(`/clients/${clientId()}/reviewing/jobs/by-coordinates`, {
      providerScopePath: `${env.github.hostUrl}/acme`,
      providerProjectKey: 'acme',
      repositoryId: env.githubRepositoryId,
      pullRequestId: 43,
    });
    expect(refused.body).toMatchObject({ outcome: 'notSubmittable' });

    await page.getByRole('button', { name: 'Unblock #43' }).click();
    await page.getByRole('button', { name: 'Unblock now' }).click();
    await page.getByText('No pull request is blocked.').waitFor();
  });

  it('edits an AI connection’s models and purpose bindings, saying that verification was reset', async () => {
    await page.goto(aiConnectionPath);
    await page.getByRole('button', { name: 'Deactivate' }).waitFor();
    await page.getByRole('button', { name: 'Edit models and purposes' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('edit')).toBe('models');
    await page.getByLabel('Model id', { exact: true }).fill('gpt-4.1');
    await page.getByRole('button', { name: 'Add model' }).click();
    await page.getByLabel('Model for reviewTriage', { exact: true }).selectOption('gpt-4.1');
    await checkPage(page, '14e-ai-connection-edit');
    await page.getByRole('button', { name: 'Save models and purposes' }).click();

    await page
      .getByText(
        'Saved. The change reset verification and deactivated the connection: reviews do not use it until you verify it and activate it again.',
      )
      .waitFor();
    expect(new URL(page.url()).searchParams.get('edit')).toBeNull();
    await page.getByRole('table', { name: 'Configured models' }).getByRole('cell', { name: 'gpt-4.1' }).waitFor();
    const triage = page.getByRole('table', { name: 'Purpose bindings' }).getByRole('row', { name: /reviewTriage/ });
    expect(await triage.textContent()).toContain('gpt-4.1');
    // The model that was there keeps its prices.
    await page.getByRole('cell', { name: '$1.00 / $4.00' }).waitFor();
    expect(await page.getByRole('button', { name: 'Activate' }).isDisabled()).toBe(true);
    await checkPage(page, '14f-ai-connection-saved');

    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('.result-ok').waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('button', { name: 'Deactivate' }).waitFor();
  });

  it('says over which clients the overview counts the queue, in valid markup', async () => {
    const admin = await env.host.admin();
    const { tenantId } = (await admin.get(`/clients/${clientId()}`)).body as { tenantId: string };
    for (let i = 1; i <= 20; i++) {
      expect((await admin.post('/clients', { displayName: `Client ${i}`, tenantId })).status).toBe(201);
    }
    await page.goto('/');
    const queue = page.getByRole('region', { name: 'Queue' });
    await queue.getByText(/^Counted over the first 20 clients/).waitFor();
    // axe's definition-list rule: the note sits beside the list of counts, not inside it.
    await checkPage(page, '14g-overview-many-clients');
    await queue.getByText('Counted over the first 20 clients only; reviews of the others are not counted.').waitFor();
    expect(await queue.locator('dd').allTextContents()).toEqual(['0', '0']);
  });

  it('creates a user with an email, shown in the list', async () => {
    await page.goto('/admin/users');
    await heading('Users').waitFor();
    const create = page.getByRole('form', { name: 'Create a user' });
    await create.getByLabel('Username', { exact: true }).fill('frank');
    await create.getByLabel('Email', { exact: true }).fill('Frank@Example.com');
    await create.getByLabel('Initial password', { exact: true }).fill('frank-password-1234');
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('table', { name: 'Users' }).getByText('Frank@Example.com', { exact: true }).waitFor();
  });

  it('checks the remaining pages', async () => {
    const pages: Array<[path: string, title: string, shot: string]> = [
      ['/admin/users', 'Users', '15-users'],
      [`${clientPath}/reviews`, 'Reviews', '16-reviews'],
      [`${clientPath}/reviews/submit`, 'Submit a review', '17-submit-review'],
      [`${clientPath}/blocked`, 'Blocked pull requests', '18-blocked'],
      [`${clientPath}/webhooks`, 'Webhooks', '19-webhooks'],
      [`${clientPath}/crawls`, 'Crawls', '20-crawls'],
      [`${clientPath}/knowledge`, 'Code knowledge', '21-knowledge'],
      [`${clientPath}/ai`, 'AI connections', '22-ai-connections'],
      [`${clientPath}/scm`, 'Source control', '23-scm-connections'],
      ['/no/such/page', 'Page not found', '24-not-found'],
    ];
    for (const [path, title, shot] of pages) {
      await page.goto(path);
      await heading(title).waitFor();
      await page
        .locator('.waiting')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
      await checkPage(page, shot);
    }
  });
});
