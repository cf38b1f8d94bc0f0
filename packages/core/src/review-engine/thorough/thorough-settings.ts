import { MarginError } from '../../kernel/index.js';

/**
 * Thorough mode (reference §6.5): a high-tier chunk is asked `samples` times, each with its hunks
 * in another order, at `temperature`, and a finding is kept only when `minAgreement` samples
 * produced it. Off unless a repository's `.margin/config.yml` says `thorough: true`: it multiplies
 * the generation cost of the chunks it applies to by `samples` (reference §15).
 */
export interface ThoroughSettings {
  /** Independent asks per thorough chunk (2–5). */
  samples: number;
  /** The samples' temperature: some spread, so agreement means something (0–2). */
  temperature: number;
  /** Samples that must produce a finding for it to stay (2..samples). */
  minAgreement: number;
}

export const DEFAULT_THOROUGH_SETTINGS: ThoroughSettings = { samples: 3, temperature: 0.4, minAgreement: 2 };

/** The settings as given, or a `validation_failed` error naming the one that is out of range. */
export function checkThoroughSettings(settings: ThoroughSettings | undefined): ThoroughSettings {
  const { samples, temperature, minAgreement } = settings ?? DEFAULT_THOROUGH_SETTINGS;
  if (!Number.isInteger(samples) || samples < 2 || samples > 5) {
    throw MarginError.validation('thorough.samples must be a whole number from 2 to 5.');
  }
  if (!Number.isInteger(minAgreement) || minAgreement < 2 || minAgreement > samples) {
    throw MarginError.validation('thorough.minAgreement must be a whole number from 2 to thorough.samples.');
  }
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw MarginError.validation('thorough.temperature must be a number from 0 to 2.');
  }
  return { samples, temperature, minAgreement };
}
