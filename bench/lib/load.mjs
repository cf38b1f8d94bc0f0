import autocannon from 'autocannon';

/** Requests per second a single load process gets out of `url` (warm-up run discarded). */
export async function measureThroughput({ url, headers = {}, connections = 32, seconds = 5 }) {
  const run = (duration) => autocannon({ url, headers, connections, duration, pipelining: 1 });
  await run(1);
  const result = await run(seconds);
  const non2xx = result.non2xx + result.errors;
  if (non2xx > 0) throw new Error(`${url}: ${non2xx} of ${result.requests.total} requests failed`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}
