// How a payment method moves a payment: the method catalogue's `Flow` values.

/**
 * `two-step-authorized-at-create`: a two-step method whose provider authorizes while the payment is
 * created (Klarna Invoice: the real test host shows it Authorized on a read right after the create).
 */
export type Flow = 'one-step' | 'two-step' | 'two-step-capture-requested' | 'two-step-authorized-at-create' | 'card';

export const FLOWS: readonly Flow[] = ['one-step', 'two-step', 'two-step-capture-requested', 'two-step-authorized-at-create', 'card'];

/** Whether a method authorizes first and is then captured by the merchant. */
export function authorizesFirst(flow: Flow | null): boolean {
  return flow === 'two-step' || flow === 'two-step-capture-requested' || flow === 'two-step-authorized-at-create' || flow === 'card';
}
