import { describe, expect, it } from 'vitest';
import type { AiProviderKindV1 } from '../ai-model/index.js';
import { connectionHost, hostPermitted, policyViolation } from './tenant-ai-policy.js';

const kindWith = (defaultEndpoint: string | undefined) => ({ defaultEndpoint }) as AiProviderKindV1;

describe('the tenant AI policy rules', () => {
  it('takes the host from baseUrl, else from the first word of the kind’s default endpoint', () => {
    expect(connectionHost(kindWith('https://api.openai.com/v1'), { baseUrl: 'https://GW.Example.com./v1' })).toBe(
      'gw.example.com',
    );
    expect(connectionHost(kindWith('https://api.openai.com/v1'), { baseUrl: '' })).toBe('api.openai.com');
    expect(
      connectionHost(kindWith('https://aiplatform.googleapis.com (Vertex AI) or the Gemini API'), { baseUrl: '' }),
    ).toBe('aiplatform.googleapis.com');
    // A regional default names no host: a host rule cannot permit it until baseUrl is set.
    expect(connectionHost(kindWith('https://bedrock-runtime.<region>.amazonaws.com'), { baseUrl: '' })).toBeUndefined();
    expect(connectionHost(undefined, { baseUrl: '' })).toBeUndefined();
  });

  it('matches exact hosts, and .suffix only below the suffix', () => {
    const permitted = ['api.openai.com', '.azure.example'];
    expect(hostPermitted('api.openai.com', permitted)).toBe(true);
    expect(hostPermitted('eu.api.openai.com', permitted)).toBe(false);
    expect(hostPermitted('acme.azure.example', permitted)).toBe(true);
    expect(hostPermitted('azure.example', permitted)).toBe(false);
    expect(hostPermitted('evilazure.example', permitted)).toBe(false);
  });

  it('names what it refuses; no policy or null lists refuse nothing', () => {
    const kind = kindWith('https://bedrock-runtime.<region>.amazonaws.com');
    const profile = { providerKind: 'kindCloudB', baseUrl: '' };
    expect(policyViolation(undefined, kind, profile)).toBeUndefined();
    expect(policyViolation({ permittedProviderKinds: null, permittedHosts: null }, kind, profile)).toBeUndefined();
    expect(policyViolation({ permittedProviderKinds: [], permittedHosts: null }, kind, profile)).toEqual({
      path: 'providerKind',
      message: 'The tenant AI policy does not permit the provider kind kindCloudB.',
    });
    expect(
      policyViolation({ permittedProviderKinds: null, permittedHosts: ['.amazonaws.com'] }, kind, profile),
    ).toEqual({
      path: 'baseUrl',
      message: 'The tenant AI policy permits only listed hosts: set baseUrl to one of them.',
    });
  });
});
