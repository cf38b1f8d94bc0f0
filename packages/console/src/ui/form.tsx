import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useContext,
  useId,
  useRef,
  useState,
} from 'react';
import { fieldMessage, formProblem, type Problem, toProblem } from './problem.js';

/**
 * Runs a call to the API as a mutation and keeps its pending state and problem for the form or
 * button that started it. On success it invalidates the queries under `invalidates` and stays
 * pending until the ones on screen are read again: when it is done, the page shows the change.
 */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>, invalidates: QueryKey[] = []) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (args: A) => fn(...args),
    onSuccess: () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
  // What the form's own checks found before any call.
  const [checked, setChecked] = useState<Problem>();
  const run = async (...args: A): Promise<R | undefined> => {
    setChecked(undefined);
    // A refused call is `mutation.error`, shown by the form; the caller only learns there is no result.
    return mutation.mutateAsync(args).catch(() => undefined);
  };
  const setProblem = (problem?: Problem) => {
    mutation.reset();
    setChecked(problem);
  };
  const problem = checked ?? (mutation.error ? toProblem(mutation.error) : undefined);
  return { run, pending: mutation.isPending, problem, setProblem };
}

export type Action = ReturnType<typeof useAction<[], unknown>>;

const ProblemContext = createContext<Problem | undefined>(undefined);

interface FormProps {
  action: {
    run: () => Promise<unknown>;
    pending: boolean;
    problem: Problem | undefined;
    setProblem(p?: Problem): void;
  };
  submitLabel: string;
  /** Shown while the call runs, e.g. "Verifying…". */
  pendingLabel?: string;
  children: ReactNode;
  label?: string;
  extraButtons?: ReactNode;
}

/**
 * Every form: the browser's checks (which mirror the API's rules) run first and report in the same
 * place as the API's answer; field messages sit next to the field the `path` names.
 */
export function Form({ action, submitLabel, pendingLabel, children, label, extraButtons }: FormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const local = formProblem(event.currentTarget);
    if (local) {
      action.setProblem(local);
      const first = event.currentTarget.querySelector<HTMLElement>(':invalid');
      first?.focus();
      return;
    }
    void action.run();
  };
  return (
    <form ref={formRef} className="form" noValidate onSubmit={onSubmit} aria-label={label} aria-busy={action.pending}>
      <ProblemContext.Provider value={action.problem}>
        {children}
        <ProblemSummary problem={action.problem} fields={formRef.current ?? undefined} />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={action.pending}>
            {action.pending ? (pendingLabel ?? 'Working…') : submitLabel}
          </button>
          {extraButtons}
        </div>
      </ProblemContext.Provider>
    </form>
  );
}

/**
 * The one error display: the message, and the field messages that have no field in `fields` (the
 * form they came from) to sit beside. Without `fields`, every field message is listed here.
 */
export function ProblemSummary({
  problem,
  fields,
}: {
  problem: Problem | undefined;
  fields?: HTMLElement | undefined;
}) {
  if (!problem) return null;
  const loose = problem.details.filter((d) => !fields?.querySelector(`[name="${CSS.escape(d.path)}"]`));
  return (
    <div className="problem" role="alert">
      <p>{problem.message}</p>
      {loose.length > 0 && (
        <ul>
          {loose.map((d) => (
            <li key={d.path}>
              <code>{d.path}</code>: {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface FieldShellProps {
  label: string;
  name: string;
  hint?: ReactNode;
  children: (control: { id: string; name: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

function FieldShell({ label, name, hint, children }: FieldShellProps) {
  const id = useId();
  const message = fieldMessage(useContext(ProblemContext), name);
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        name,
        ...(message ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

type TextProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'name'> & {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  hint?: ReactNode;
};

export function TextField({ label, name, value, onChange, hint, ...input }: TextProps) {
  return (
    <FieldShell label={label} name={name} hint={hint}>
      {(control) => <input {...input} {...control} value={value} onChange={(e) => onChange(e.target.value)} />}
    </FieldShell>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'name'> & {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  options: ReadonlyArray<string | { value: string; label: string }>;
  hint?: ReactNode;
  /** A first empty option, e.g. "Choose…". */
  placeholder?: string;
};

export function SelectField({ label, name, value, onChange, options, hint, placeholder, ...select }: SelectProps) {
  return (
    <FieldShell label={label} name={name} hint={hint}>
      {(control) => (
        <select {...select} {...control} value={value} onChange={(e) => onChange(e.target.value)}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => {
            const option = typeof o === 'string' ? { value: o, label: o } : o;
            return (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            );
          })}
        </select>
      )}
    </FieldShell>
  );
}

export function CheckField({
  label,
  name,
  checked,
  onChange,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange(value: boolean): void;
}) {
  const id = useId();
  const message = fieldMessage(useContext(ProblemContext), name);
  return (
    <div className="field check">
      <input id={id} name={name} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
      {message && <small className="field-error">{message}</small>}
    </div>
  );
}

export function TextAreaField({
  label,
  name,
  value,
  onChange,
  hint,
  ...area
}: Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'name'> & {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  hint?: ReactNode;
}) {
  return (
    <FieldShell label={label} name={name} hint={hint}>
      {(control) => <textarea {...area} {...control} value={value} onChange={(e) => onChange(e.target.value)} />}
    </FieldShell>
  );
}
