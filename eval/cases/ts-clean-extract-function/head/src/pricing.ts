export interface Customer {
  loyaltyYears: number;
}

export function discountFor(customer: Customer): number {
  if (customer.loyaltyYears >= 5) return 0.1;
  if (customer.loyaltyYears >= 2) return 0.05;
  return 0;
}

export function priceFor(customer: Customer, listPrice: number): number {
  return Math.round(listPrice * (1 - discountFor(customer)) * 100) / 100;
}
