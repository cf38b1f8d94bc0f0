import { type AiProbeResult, failureCategoryOf, failureSummaryOf, MarginError } from '@margin/core/spec';

/**
 * Runs a probe's authenticated call and turns the outcome into a probe result, categorised by the
 * same rule core's verify uses, so a probe and a verify of the same fault agree. Configuration
 * errors (`validation_failed`, e.g. a missing region) are not probe outcomes: they are thrown, so
 * the caller answers 400 naming the field.
 */
export async function probeWith(
  call: () => Promise<{ summary: string; warnings?: string[] }>,
  warnings: string[] = [],
): Promise<AiProbeResult> {
  try {
    const ok = await call();
    return { status: 'succeeded', summary: ok.summary, warnings: [...warnings, ...(ok.warnings ?? [])] };
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'validation_failed') throw error;
    return {
      status: 'failed',
      failureCategory: failureCategoryOf(error),
      summary: failureSummaryOf(error),
      warnings,
    };
  }
}
