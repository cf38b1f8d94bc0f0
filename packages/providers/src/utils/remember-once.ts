/**
 * An async lookup done once and then remembered (e.g. which account the credentials act as); a
 * failed lookup is forgotten so the next call asks again. The call that starts a lookup passes it
 * its arguments (an abort signal, say); calls while it runs share its outcome.
 */
export function rememberOnce<T, A extends unknown[] = []>(
  lookup: (...args: A) => Promise<T>,
): { get(...args: A): Promise<T>; set(value: T): void } {
  let pending: Promise<T> | undefined;
  return {
    get(...args) {
      pending ??= lookup(...args).catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
    set(value) {
      pending = Promise.resolve(value);
    },
  };
}
