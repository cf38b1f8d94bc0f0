import { MarginError } from '../kernel/index.js';

/** Every item of an async iterable (paged provider listings), in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The `MarginError` a promise rejects with; fails loudly when it resolves or rejects with anything else. */
export async function marginErrorOf(promise: Promise<unknown>): Promise<MarginError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MarginError.isInstance(error)) throw new Error(`expected a MarginError, got ${String(error)}`);
  return error;
}
