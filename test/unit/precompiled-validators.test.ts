// The built sandbox validates with validators compiled at build time; the sources compile them at
// run time. Both must give the same reasons for the same input.
import { join } from 'node:path';
import { VALIDATED } from '../../src/schemas/registry';
import { validate } from '../../src/schemas/validator';
import { ROOT, ensureBuilt } from '../cli/process';
import { paymentBody } from '../helpers/world';

const SAMPLES: unknown[] = [
  undefined,
  null,
  [],
  'text',
  {},
  paymentBody(),
  paymentBody({ Amount: '10.50', Currency: 'eur', Splits: [{ SiteID: 'x' }], Extra: 1 }),
  { Payment: { Splits: [{ ID: 1, Amount: -1 }] } },
  { Refund: { Amount: 0, Description: 5 } },
  { Splits: [{ SiteID: 30202, Amount: 1, MerchantTransactionID: '' }] },
  { Event: 'authorize' },
  { Event: 'nope' },
  { Seconds: -1 },
  { NotificationURL: 'ftp://x' },
  { Merchants: [{ SiteID: 1, APIKey: 'k', Name: 'n', LinkedSites: [{ SiteID: 0 }] }] },
  { Methods: [{ ID: 1, Name: 'x', Flow: 'sideways' }] },
  { Name: 'Bad Name', Description: '', Steps: [{ Do: 'dance', After: 'soon' }] },
];

describe('precompiled validators', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it.each(Object.keys(VALIDATED))('%s gives the same reasons as the run-time compiled one', (name) => {
    const dist = join(ROOT, 'dist', 'schemas');
    const built = require(join(dist, 'validator.js')) as typeof import('../../src/schemas/validator');
    const builtSchemas = (require(join(dist, 'registry.js')) as typeof import('../../src/schemas/registry')).VALIDATED;
    for (const sample of SAMPLES) {
      expect(built.validate(builtSchemas[name]!, sample)).toEqual(validate(VALIDATED[name]!, sample));
    }
  });
});
