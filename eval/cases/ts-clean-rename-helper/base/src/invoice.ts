import { formatMoney } from './format.js';

export function invoiceLine(label: string, cents: number): string {
  return `${label}: ${formatMoney(cents, 'EUR')}`;
}
