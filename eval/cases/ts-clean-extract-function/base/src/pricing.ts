export interface Customer {
  loyaltyYears: number;
}

export function priceFor(customer: Customer, listPrice: number): number {
  let discount = 0;
  if (customer.loyaltyYears >= 5) discount = 0.1;
  else if (customer.loyaltyYears >= 2) discount = 0.05;
  return Math.round(listPrice * (1 - discount) * 100) / 100;
}
