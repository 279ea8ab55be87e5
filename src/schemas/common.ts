// Building blocks shared by the request and response schemas.
// `x-reason` names the reason code a value that fails this schema is rejected with (2 when absent).
import { COUNTRIES, CURRENCIES } from './codes';

export type Schema = Record<string, unknown>;

export const INT32_MAX = 2147483647;

/** A request amount: a JSON integer or a string of digits, in minor units, greater than 0. */
export const amountIn: Schema = {
  'x-reason': 118,
  description: 'Minor units (1154 = 11.54): a JSON integer or a string of 1 to 12 digits, greater than 0',
  anyOf: [
    { type: 'integer', minimum: 1, maximum: 999999999999 },
    { type: 'string', pattern: '^(?!0+$)[0-9]{1,12}$' },
  ],
};

export const currencyIn: Schema = { 'x-reason': 100, type: 'string', enum: CURRENCIES };
export const countryIn: Schema = { 'x-reason': 120, type: ['string', 'null'], enum: [...COUNTRIES, null] };
export const id32: Schema = { type: 'integer', minimum: 1, maximum: INT32_MAX };
export const text = (max: number): Schema => ({ type: 'string', maxLength: max });
export const optText = (max: number): Schema => ({ type: ['string', 'null'], maxLength: max });
export const nullOnly: Schema = { type: 'null', description: 'Not supported by the sandbox: send null or leave it out' };

/** Wire forms in responses. */
export const amountOut: Schema = { type: 'string', pattern: '^[0-9]+$' };
export const timestampOut: Schema = { type: 'string', pattern: '^[0-9]{14}$' };
export const nullableTimestampOut: Schema = { type: ['string', 'null'], pattern: '^[0-9]{14}$' };
export const str: Schema = { type: 'string' };
export const nstr: Schema = { type: ['string', 'null'] };
export const int: Schema = { type: 'integer' };
export const nint: Schema = { type: ['integer', 'null'] };
export const nul: Schema = { type: 'null' };

/** An object whose every listed key is present, and no other. */
export function exact(properties: Record<string, Schema>, type: 'object' | ['object', 'null'] = 'object'): Schema {
  return { type, required: Object.keys(properties), additionalProperties: false, properties };
}
