// Query parameters by name, whatever their case (official clients send `amount` and `Amount` alike).
import type { Request } from 'express';

/** The value of `name`; '' when it is given more than once or without a value, undefined when absent. */
export function queryParam(req: Request, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(req.query)) {
    if (k.toLowerCase() === wanted) return typeof v === 'string' ? v : '';
  }
  return undefined;
}
