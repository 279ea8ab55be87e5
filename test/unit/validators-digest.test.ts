// The digest that names what the compiled validators are made from (scripts/compile-validators.cjs):
// the tests take the build's validators instead of compiling their own only when it is the same.
import { AJV_OPTIONS, CHECK_OPTIONS, createAjv } from '../../src/schemas/validator';
import { VALIDATED } from '../../src/schemas/registry';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const building = require('../../scripts/compile-validators.cjs') as {
  validatorFiles(inputs: object): [string, string][];
  validatorsDigest(inputs: object): string | undefined;
};

describe('the digest of the compiled validators', () => {
  const inputs = { VALIDATED, AJV_OPTIONS, CHECK_OPTIONS };
  const digest = building.validatorsDigest(inputs);

  it('is the same for the same inputs', () => {
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(building.validatorsDigest(structuredClone(inputs))).toBe(digest);
  });

  it('changes with any schema, with ajv’s options and with the check’s options', () => {
    const [name, schema] = Object.entries(VALIDATED)[0];
    const edited = { ...VALIDATED, [name]: { ...(schema as object), description: 'edited' } };
    expect(building.validatorsDigest({ ...inputs, VALIDATED: edited })).not.toBe(digest);
    expect(building.validatorsDigest({ ...inputs, AJV_OPTIONS: { ...AJV_OPTIONS, allErrors: false } })).not.toBe(digest);
    expect(building.validatorsDigest({ ...inputs, CHECK_OPTIONS: { ...CHECK_OPTIONS, extra: 1 } })).not.toBe(digest);
  });

  it('goes with a validator and a check per input schema, the check without the reasons', () => {
    const [name, schema] = Object.entries(VALIDATED).find(([n]) => n === 'preapprovalEventRequest') ?? Object.entries(VALIDATED)[0];
    const files = new Map(building.validatorFiles({ VALIDATED: { [name]: schema }, CHECK_OPTIONS, createAjv }));
    expect([...files.keys()]).toEqual([`${name}.js`, `${name}.check.js`]);
    expect(files.get(`${name}.js`)).toContain('instancePath');
    expect(files.get(`${name}.check.js`)!.length).toBeLessThan(files.get(`${name}.js`)!.length);
  });
});
