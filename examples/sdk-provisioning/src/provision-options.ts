import type { Credentials, Schemas } from '@margin/sdk-client';

/** What one tenant's setup should look like. Running `provision` again with the same options changes nothing. */
export interface ProvisionOptions {
  /** The API root, e.g. `https://margin.example.com/api`. */
  baseUrl: string;
  /** A certificate (PEM) to trust besides the public roots: the host's self-signed one, or a private CA. */
  ca?: string | undefined;
  /** A client administrator or above: a personal access token, or a username and password. */
  credentials: Credentials;
  /** Found by display name, created when missing. */
  client: {
    displayName: string;
    /** Default: the only tenant the caller may create clients in (the System tenant in Community). */
    tenantId?: string | undefined;
  };
  /** Found by family and host, created when missing, verified until it is. */
  sourceControl: {
    providerFamily: Schemas['CreateProviderConnectionInput']['providerFamily'];
    /** Default `personalAccessToken`. */
    authenticationKind?: Schemas['CreateProviderConnectionInput']['authenticationKind'] | undefined;
    hostBaseUrl: string;
    /** Write-only: sent when the connection is created, never read back or printed. */
    secret: string;
    displayName?: string | undefined;
  };
  /** An AI connection profile with one chat model, found by display name; verified and activated. */
  ai: {
    displayName: string;
    providerKind: Schemas['CreateAiConnectionInput']['providerKind'];
    baseUrl: string;
    /** Write-only, like the source-control secret. */
    apiKey: string;
    model: { remoteModelId: string; maxContextTokens?: number | undefined };
  };
  /** The logical model pointing at that chat model, to which the `reviewDefault` purpose is mapped. */
  logicalModelName: string;
  /** A pull request to review once. Its provider and host are the source-control connection's. */
  review?: ReviewTarget | undefined;
  /** How long to wait for the review; it goes on in the background when the wait ends. */
  wait?: { intervalMs?: number | undefined; timeoutMs?: number | undefined } | undefined;
  /** Each step as it happens; `console.log` in the CLI. Lines never carry secrets. */
  log?: ((line: string) => void) | undefined;
}

export interface ReviewTarget {
  repository: Schemas['SubmitJobInput']['repository'];
  codeReview: Schemas['SubmitJobInput']['codeReview'];
  /** Required: a revision is what makes "reviewed once" checkable. */
  reviewRevision: NonNullable<Schemas['SubmitJobInput']['reviewRevision']>;
}

/** `created`: a new resource; `changed`: an existing one changed state (verified, activated, remapped). */
export type StepOutcome = 'created' | 'changed' | 'unchanged';

export interface Step {
  resource: string;
  id: string;
  outcome: StepOutcome;
  note: string;
}

export interface ReviewReport {
  jobId: string;
  /** False when a job for this revision already existed and was only read. */
  submitted: boolean;
  status: Schemas['JobStatus']['status'];
  /** Why the job failed, as the server recorded it; null otherwise. */
  error: string | null;
}

export interface ProvisionReport {
  clientId: string;
  scmConnectionId: string;
  aiConnectionId: string;
  logicalModelName: string;
  steps: Step[];
  review: ReviewReport | undefined;
}

/** Provisioning cannot go on: a connection failed verification, or the options are ambiguous. */
export class ProvisioningError extends Error {
  constructor(
    readonly resource: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProvisioningError';
  }
}
