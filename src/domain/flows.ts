// How a payment method moves a payment: the method catalogue's `Flow` values.

export type Flow = 'one-step' | 'two-step' | 'two-step-capture-requested' | 'card';

export const FLOWS: readonly Flow[] = ['one-step', 'two-step', 'two-step-capture-requested', 'card'];

/** Whether a method authorizes first and is then captured by the merchant. */
export function authorizesFirst(flow: Flow | null): boolean {
  return flow === 'two-step' || flow === 'two-step-capture-requested' || flow === 'card';
}
