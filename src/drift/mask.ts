// What drift keeps of the integration's traffic (a difference's values, a call's path, a story's bodies)
// with its card numbers, security codes and credentials masked. Pure: no I/O.
import { SECURITY_CODE_MASK, isCardNumber, isSecurityCodeKey, isTimeOrIdKey, maskCardData, maskCardNumber, maskQuery } from '../domain/card-data';

const MAX_DEPTH = 64;
/** What a value nested deeper than MAX_DEPTH is kept as. */
export const TOO_DEEP = '(nested too deep)';

/** A key holding a credential: an Authorization header, an APIKey, a password, a control token. */
const CREDENTIAL = /^(?:proxy)?authorization$|^(?:x)?apikey$|^password$|^secret$|^(?:x)?(?:sandbox)?controltoken$|^clientsecret$/;
const lastSegment = (key: string) => {
  const parts = key.split(/[[\].]/).filter((p) => p.trim() !== '');
  return parts[parts.length - 1] ?? key;
};

/** Whether a key (or a field path's last segment) holds a credential. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL.test(lastSegment(key).toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** Whether a key's value is replaced whole: a security code or a credential. */
export const isSecretKey = (key: string) => isCredentialKey(key) || isSecurityCodeKey(lastSegment(key));

/**
 * A JSON value with its card data and credentials masked. `key` is the key it was found under
 * (a field path's last segment will do), so that a security code or a key compared on its own is
 * masked too, and a time or an ID is not taken for a card number.
 */
export function maskValue(value: unknown, key: string | null = null, depth = 0): unknown {
  // Deeper than any answer of the API: not kept (nor walked, so that no value can exhaust the stack).
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (key !== null && isSecretKey(key)) return value === null || value === undefined || value === '' ? value : SECURITY_CODE_MASK;
  const exempt = key !== null && isTimeOrIdKey(lastSegment(key));
  if (typeof value === 'string') return exempt ? value : maskCardData(value);
  if (typeof value === 'number') return !exempt && Number.isInteger(value) && value > 0 && isCardNumber(String(value)) ? maskCardNumber(String(value)) : value;
  if (typeof value === 'bigint') return !exempt && isCardNumber(value.toString()) ? maskCardNumber(value.toString()) : value;
  if (Array.isArray(value)) return value.map((v) => maskValue(v, key, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskValue(v, k, depth + 1);
    return out;
  }
  return value;
}

/** A path as requested (perhaps with a query string): card numbers in its segments and card data and credentials in its query masked. */
export function maskPath(path: string): string {
  const at = path.indexOf('?');
  const head = at < 0 ? path : path.slice(0, at);
  const maskedHead = maskCardData(head);
  if (at < 0) return maskedHead;
  const query = maskQuery(path.slice(at + 1))
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let key: string;
      try {
        key = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
      } catch {
        key = pair.slice(0, eq);
      }
      return isCredentialKey(key) && pair.length > eq + 1 ? `${pair.slice(0, eq)}=${SECURITY_CODE_MASK}` : pair;
    })
    .join('&');
  return `${maskedHead}?${query}`;
}
