import { formatAmount } from './format.js';

export function invoiceLine(label: string, cents: number): string {
  return `${label}: ${formatAmount(cents, 'EUR')}`;
}
