import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ProblemSummary } from './form.js';
import { toProblem } from './problem.js';

/**
 * Loading, failure or the data of a query: one way for every page to wait for what it shows. A
 * failed refetch (a poll) keeps the data it had and shows the problem above it.
 */
export function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const problem = query.error ? toProblem(query.error) : undefined;
  if (query.data !== undefined) {
    return (
      <>
        {problem && <ProblemSummary problem={problem} />}
        {children(query.data)}
      </>
    );
  }
  if (problem) return <ProblemSummary problem={problem} />;
  return <Waiting label="Loading…" />;
}

/** A wait the user can see (and a screen reader hears), after a short delay so quick answers don't flicker. */
export function Waiting({ label }: { label: string }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 150);
    return () => clearTimeout(timer);
  }, []);
  return (
    <p className="waiting" role="status">
      {shown && (
        <>
          <span className="spinner" aria-hidden="true" /> {label}
        </>
      )}
    </p>
  );
}

const TONES: Record<string, string> = {
  completed: 'ok',
  verified: 'ok',
  succeeded: 'ok',
  accepted: 'ok',
  published: 'ok',
  reviewed: 'ok',
  ok: 'ok',
  active: 'ok',
  running: 'busy',
  queued: 'busy',
  partial: 'warn',
  carriedForward: 'muted',
  summaryOnly: 'warn',
  ignored: 'muted',
  skipped: 'muted',
  neverVerified: 'muted',
  inactive: 'muted',
  superseded: 'muted',
  cancelled: 'muted',
  stopped: 'muted',
  suppressed: 'muted',
  degraded: 'warn',
  budgetHeld: 'warn',
  budgetExceeded: 'warn',
  // A budget's state: past the soft cap only cuts reviews down.
  soft: 'warn',
};

/** A state as a word with a colour; the word carries the meaning, the colour only helps. */
export function Badge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge ${TONES[value] ?? 'bad'}`}>{label ?? value}</span>;
}

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

/**
 * A secret the API answers once (a PAT, a webhook secret): shown with a copy button until the user
 * says it is stored, then dropped from the page and from memory.
 */
export function ShownOnce({ label, secret, onDone }: { label: string; secret: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard access (insecure origin, denied): select it so the user can copy by hand.
      input.current?.select();
    }
  };
  return (
    <section className="shown-once" aria-label={label}>
      <p>
        <strong>{label}</strong> is shown only now. Copy it and store it safely; Margin cannot show it again.
      </p>
      <div className="secret-row">
        <input ref={input} readOnly value={secret} aria-label={label} className="mono" />
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="primary" onClick={onDone}>
          I have stored it
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        {copied ? `${label} copied to the clipboard.` : ''}
      </p>
    </section>
  );
}

/** Copies a text that is fine to keep on the page (a listener URL); secrets use ShownOnce. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A button that asks once more inline before it does something that cannot be undone. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  onConfirm(): void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export const formatUsd = (value: number) =>
  value.toLocaleString(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 });
export const formatCount = (value: number) => value.toLocaleString();
