export function formatAmount(cents: number, currency: string): string {
  const whole = Math.trunc(cents / 100);
  const rest = Math.abs(cents % 100).toString().padStart(2, '0');
  return `${whole}.${rest} ${currency}`;
}
