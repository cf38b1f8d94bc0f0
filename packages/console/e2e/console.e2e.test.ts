/**
 * The console in a real browser against a real host: an operator signs in, sets up a client (source
 * control on a fake GitHub, an AI connection on a fake model server, the purpose map, a webhook),
 * a delivery starts a review by Margin's own engine, the job page shows it to the end, a finding is
 * dismissed, the edition is switched and the same pull request is reviewed again. Every main page is
 * checked with axe-core and photographed.
 */

import { delivery, FACTS, postDelivery } from '@margin/server-express/test-kits';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '@margin/server-express/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, chromiumAvailable, launchChromium, screenshot } from './browser.js';
import { type ConsoleHost, startConsoleHost } from './console-host.js';
import { PROPOSED, PULL_REQUEST } from './review-script.js';

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
    await page.getByText('2 reviewed · 3 skipped').waitFor();
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
