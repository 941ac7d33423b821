import { customerStates, genderLabel, paymentDelays, type Labelled } from '@fleet/contract';

const toOptions = (codes: Record<number, Labelled>) =>
  Object.entries(codes).map(([value, c]) => ({ value, label: c.label }));

/** Select options of the customer form, from the contract's codes and labels (docs/product.md §3, §4). */
export const customerStateOptions = toOptions(customerStates);
export const paymentDelayOptions = toOptions(paymentDelays);
export const genderOptions = [0, 1, 2].map((v) => ({ value: String(v), label: genderLabel(v) }));
