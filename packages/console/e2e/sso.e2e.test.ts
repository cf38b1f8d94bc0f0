/**
 * Single sign-on in the console, in Chromium against a real host and a real OpenID Connect provider
 * (`oidc-provider`) on loopback: a tenant administrator adds the provider on the single sign-on
 * screen, a new user finds the tenant on the sign-in page, goes through the provider and lands
 * signed in; a refused sign-in comes back as a readable message.
 */
import { rm } from 'node:fs/promises';
import { type OidcTestIssuer, startOidcTestIssuer } from '@margin/server-express/test-kits';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  startTestHost,
  TEST_USER_PASSWORD,
  type TestHost,
} from '@margin/server-express/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, chromiumAvailable, launchChromium } from './browser.js';
import { buildConsole } from './console-host.js';

const runs = chromiumAvailable() || process.env.CI === 'true';

describe.skipIf(!runs)('single sign-on in the console (Chromium)', () => {
  let consoleDir: string;
  let host: TestHost;
  let issuer: OidcTestIssuer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [consoleDir, browser] = await Promise.all([buildConsole(), launchChromium()]);
    host = await startTestHost({
      env: { MARGIN_CONSOLE_DIR: consoleDir, MARGIN_ALLOW_PRIVATE_EGRESS: 'true', LOG_LEVEL: 'warn' },
    });
    issuer = await startOidcTestIssuer({ redirectUris: [`${host.url}/api/auth/sso/callback`] });
    const admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const tenantId = (await admin.post('/admin/tenants', { displayName: 'Acme', slug: 'acme' })).body.id;
    expect((await admin.post('/clients', { displayName: 'Acme Web', tenantId })).status).toBe(201);
    const tina = await host.createUser('tina');
    await admin.put(`/admin/tenants/${tenantId}/members/${tina.id}`, { role: 'TenantAdministrator' });
  });
  afterAll(async () => {
    if (pageErrors.length) console.error(`errors in the page:\n${pageErrors.join('\n')}`);
    await browser?.close();
    await host?.close();
    await issuer?.close();
    if (consoleDir) await rm(consoleDir, { recursive: true, force: true });
  });

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: host.url });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  };

  it('a tenant administrator adds an identity provider on the single sign-on screen', async () => {
    const page = await newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('tina');
    await page.getByLabel('Password', { exact: true }).fill(TEST_USER_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await page.getByText('No identity provider yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Acme login');
    await page.getByLabel('Issuer URL').fill(issuer.issuer);
    await page.getByLabel('Client ID').fill(issuer.clientId);
    await page.getByLabel('Client secret').fill(issuer.clientSecret);
    await page.getByLabel('Allowed email domains').fill('acme.test');
    await page.getByLabel('Create a user at first sign-in').check();
    await page.getByLabel('Role of a created user').selectOption('ClientUser');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const table = page.getByRole('table', { name: 'Identity providers' });
    await expect.poll(() => table.textContent()).toContain('Acme login');
    expect(await table.textContent()).toContain('secret set');
    expect(await page.content()).not.toContain(issuer.clientSecret);
    await checkPage(page, 'sso-01-identity-providers');
    // The tenant's audit trail has the change, without the secret.
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
    const entries = page.getByRole('table', { name: 'Audit entries, newest first' });
    await entries.getByText('identityProvider.created').waitFor();
    expect(await page.content()).not.toContain(issuer.clientSecret);
    await checkPage(page, 'sso-01b-tenant-audit');
    await page.context().close();
  });

  const signIn = async (page: Page, username: string, password: string) => {
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.keyboard.press('Enter');
  };

  it('the platform administrator limits a tenant’s AI providers, which its administrator reads', async () => {
    const admin = await newPage();
    await signIn(admin, ADMIN_USERNAME, ADMIN_PASSWORD);
    await admin.getByRole('link', { name: 'AI policy' }).click();
    await admin.getByRole('heading', { level: 1, name: 'AI policy' }).waitFor();
    await admin.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme (acme)' });
    const form = admin.getByRole('form', { name: 'Tenant AI policy' });
    await form.getByLabel('Permitted provider kinds').fill('kindDirect, kindAssistant');
    await form.getByLabel('Permitted hosts').fill('.openai.com');
    await form.getByRole('button', { name: 'Save policy' }).click();
    const facts = admin.getByRole('region', { name: 'Permitted providers and hosts' });
    await facts.locator('dd', { hasText: /^kindDirect, kindAssistant$/ }).waitFor();
    await checkPage(admin, 'sso-04-ai-policy');
    await admin.context().close();

    const tina = await newPage();
    await signIn(tina, 'tina', TEST_USER_PASSWORD);
    await tina.getByRole('link', { name: 'AI policy' }).click();
    const read = tina.getByRole('region', { name: 'Permitted providers and hosts' });
    await read.getByText('.openai.com').waitFor();
    expect(await tina.getByRole('form', { name: 'Tenant AI policy' }).count()).toBe(0);
    await tina.context().close();
  });

  it('a tenant administrator creates a tenant AI connection the policy permits, its key never shown', async () => {
    const key = 'sk-tenant-e2e-key-never-shown';
    const page = await newPage();
    await signIn(page, 'tina', TEST_USER_PASSWORD);
    await page.getByRole('link', { name: 'Tenant AI connections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tenant AI connections' }).waitFor();
    await page.getByText('No tenant AI connections yet.').waitFor();
    const form = page.getByRole('form', { name: 'New AI connection' });
    await form.getByLabel('Name', { exact: true }).fill('Acme OpenAI');
    // The policy above permits kindDirect on .openai.com: the public endpoint is api.openai.com.
    await form.getByLabel('Provider kind', { exact: true }).selectOption('kindDirect');
    await form.getByLabel('API key', { exact: true }).fill(key);
    await form.getByLabel('Model id').fill('gpt-4.1');
    await form.getByRole('button', { name: 'Add model' }).click();
    await form.getByLabel('Model for reviewDefault', { exact: true }).selectOption('gpt-4.1');
    await form.getByRole('button', { name: 'Create connection' }).click();
    const table = page.getByRole('table', { name: 'Tenant AI connections' });
    await expect.poll(() => table.textContent()).toContain('Acme OpenAI');
    expect(await table.textContent()).toContain('neverVerified');
    expect(await page.content()).not.toContain(key);
    await checkPage(page, 'sso-05-tenant-ai-connections');
    await page.context().close();
  });

  it('a new user finds the tenant on the sign-in page and signs in through the provider', async () => {
    const page = await newPage();
    issuer.nextLogin = { sub: 'ada-browser', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' };
    await page.goto('/clients');
    await expect.poll(() => page.url()).toContain('/sign-in?next=%2Fclients');
    await page.getByRole('textbox', { name: 'Organization' }).fill('acme');
    await page.getByRole('button', { name: 'Show sign-in options' }).click();
    const link = page.getByRole('link', { name: 'Sign in with Acme login' });
    await link.waitFor();
    await checkPage(page, 'sso-02-sign-in-with-providers');
    await link.click();
    // Through the provider and back: the console takes the session up from the refresh cookie.
    await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/clients');
    expect(await page.getByRole('banner').textContent()).toContain('Ada Lovelace');
    await page.context().close();
  });

  it('explains a refused single sign-on in words', async () => {
    const page = await newPage();
    issuer.nextLogin = { sub: 'eve-browser', email: 'eve@evil.test', email_verified: true };
    await page.goto('/sign-in?tenant=acme');
    await page.getByRole('link', { name: 'Sign in with Acme login' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Your email domain may not sign in through this identity provider.');
    expect(new URL(page.url()).search).toContain('error=domain_not_allowed');
    await checkPage(page, 'sso-03-refused');
    await page.goto('/sign-in?tenant=nobody');
    await page.getByText('No single sign-on for “nobody”').waitFor();
    await page.context().close();
  });
});
