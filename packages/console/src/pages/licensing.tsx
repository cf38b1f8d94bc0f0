import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Badge, Loaded, Time } from '../ui/display.js';
import { Form, SelectField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { CAPABILITIES } from '../words.js';

type Override = Schemas['CapabilityState']['overrideState'];

/** The edition and capability overrides, with what each capability does (platform administrators). */
export function LicensingPage() {
  const licensing = useQuery({ queryKey: queryKeys.licensing, queryFn: () => api.licensing.getLicensing() });
  return (
    <Page title="Licensing">
      <Loaded query={licensing}>{(data) => <LicensingForm licensing={data} />}</Loaded>
    </Page>
  );
}

function LicensingForm({ licensing }: { licensing: Schemas['Licensing'] }) {
  const [edition, setEdition] = useState<string>(licensing.edition);
  const [overrides, setOverrides] = useState<Record<string, Override>>(() =>
    Object.fromEntries(licensing.capabilities.map((c) => [c.capability, c.overrideState])),
  );
  const [saved, setSaved] = useState(false);
  const action = useAction(async () => {
    setSaved(false);
    await api.licensing.patchLicensing({
      edition,
      capabilityOverrides: Object.entries(overrides).map(([capability, overrideState]) => ({
        capability,
        overrideState,
      })),
    });
    setSaved(true);
  }, [queryKeys.licensing, queryKeys.me]); // `me` carries the edition and capabilities the other pages read
  return (
    <>
      <p>
        The edition is installation-wide and kept in the database. Dropping to Community deletes nothing: configurations
        stay stored and resume when the capability returns.{' '}
        {licensing.activatedAt && (
          <>
            Changed <Time at={licensing.activatedAt} />.
          </>
        )}
      </p>
      <Form action={action} submitLabel="Save licensing" pendingLabel="Saving…" label="Edition and overrides">
        <SelectField
          label="Edition"
          name="edition"
          value={edition}
          onChange={setEdition}
          options={['Community', 'Commercial']}
        />
        <Section title="Capabilities">
          <table>
            <caption className="sr-only">Capabilities and overrides</caption>
            <thead>
              <tr>
                <th scope="col">Capability</th>
                <th scope="col">What it does</th>
                <th scope="col">Now</th>
                <th scope="col">Override</th>
              </tr>
            </thead>
            <tbody>
              {licensing.capabilities.map((c, index) => (
                <tr key={c.capability}>
                  <td>
                    {CAPABILITIES[c.capability]?.title ?? c.capability}
                    <div className="muted mono small">{c.capability}</div>
                  </td>
                  <td>
                    {CAPABILITIES[c.capability]?.does}
                    <div className="muted small">{c.message}</div>
                  </td>
                  <td>
                    <Badge
                      value={c.isAvailable ? 'ok' : 'inactive'}
                      label={c.isAvailable ? 'available' : 'unavailable'}
                    />
                  </td>
                  <td>
                    <SelectField
                      label={`Override for ${c.capability}`}
                      name={`capabilityOverrides[${index}].overrideState`}
                      value={overrides[c.capability] ?? 'default'}
                      onChange={(v) => setOverrides((o) => ({ ...o, [c.capability]: v as Override }))}
                      options={[
                        { value: 'default', label: 'Edition default' },
                        { value: 'enabled', label: 'Enabled' },
                        { value: 'disabled', label: 'Disabled' },
                      ]}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      </Form>
      {saved && (
        <p role="status" className="ok-text">
          Licensing saved.
        </p>
      )}
    </>
  );
}
