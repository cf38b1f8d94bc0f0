/**
 * Runs `work` over `items` with at most `limit` running at once, in order of start, and resolves
 * when all are done. A failure of one item is the caller's to catch inside `work`.
 */
export async function forEachPooled<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  });
  await Promise.all(runners);
}
