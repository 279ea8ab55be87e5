import request from 'supertest';
import type { Express } from 'express';
import Ajv from 'ajv';
import { makeWorld, type World } from '../helpers/world';

/** A JSON pointer's token for a key. */
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every route the app answers, as `METHOD /path/{param}`, read from the Express router. */
function routesOf(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const m of Object.keys(layer.route.methods)) {
          if (m === '_all') continue;
          out.push(`${m.toUpperCase()} ${String(layer.route.path).replace(/:(\w+)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as any).router.stack);
  return out.sort();
}

describe('GET /_sandbox/openapi.json', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it.each([
    ['api', () => w.api],
    ['card', () => w.card],
  ] as const)('describes every route of the %s address, and only those', async (surface, app) => {
    const res = await request(w.api).get(`/_sandbox/openapi.json?surface=${surface}`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = Object.entries(res.body.paths as Record<string, object>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(routesOf(app()));
  });

  it('holds each named schema once, in components, and only $refs to it elsewhere', async () => {
    const doc = (await request(w.api).get('/_sandbox/openapi.json')).body;
    expect(doc.paths['/v1/payments'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PaymentResponse' });
    expect(doc.components.schemas.PaymentResponse.properties.Payment).toEqual({ $ref: '#/components/schemas/PaymentOut' });
    expect(JSON.stringify(doc.paths)).not.toContain('"MerchantTransactionID":{');
  });

  it('holds schemas that a fresh JSON Schema validator compiles', async () => {
    const res = await request(w.api).get('/_sandbox/openapi.json');
    // Each schema compiled in its place in the document, whose components its $refs name: a component
    // many schemas name is compiled once, not once for each (not inlined into each). The generated
    // code is not passed through Ajv's optimizer, a third of the compile's time: it only tidies code
    // that was made, and a schema that fails to compile fails before it.
    const ajv = new Ajv({ strict: false, allowUnionTypes: true, inlineRefs: false, code: { optimize: false } });
    ajv.addSchema(res.body, 'document');
    // A schema of the same text as one compiled already, in the same document, compiles to the same
    // validator (with no $id in the document, every $ref in it resolves alike wherever it stands): that
    // one answers for it. Most of the document's answers are the same few $refs (404, 401, …).
    expect(JSON.stringify(res.body)).not.toContain('"$id"');
    const compiled = new Map<string, ReturnType<typeof ajv.getSchema>>();
    const compile = (schema: object, at: string) => {
      if (!ajv.validateSchema(schema)) throw new Error(`${at}: ${ajv.errorsText()}`);
      const text = JSON.stringify(schema);
      if (!compiled.has(text)) compiled.set(text, ajv.getSchema(`document#${at}`));
      return compiled.get(text);
    };
    let count = 0;
    for (const [path, ops] of Object.entries(res.body.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const at = `/paths/${pointer(path)}/${method}`;
        for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
          const schema = r.content?.['application/json']?.schema;
          if (!schema) continue; // the payment page's HTML and its redirects
          expect(compile(schema, `${at}/responses/${status}/content/application~1json/schema`)).toBeInstanceOf(Function);
          count++;
        }
        if (op.requestBody) (expect(compile(op.requestBody.content['application/json'].schema, `${at}/requestBody/content/application~1json/schema`)).toBeInstanceOf(Function), count++);
      }
    }
    expect(count).toBeGreaterThan(30);
  });

  it('refuses an unknown surface', async () => {
    const res = await request(w.api).get('/_sandbox/openapi.json?surface=nope');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ Message: 'surface must be api or card' });
  });
});

describe('examples of the OpenAPI document', () => {
  it('has an example for every request body, and each passes its own schema', async () => {
    const w = makeWorld();
    try {
      // A component is compiled once and called by the schemas that name it (not inlined into each);
      // the code made is not tidied by Ajv's optimizer, which decides no answer.
      const ajv = new Ajv({ strict: false, allowUnionTypes: true, inlineRefs: false, code: { optimize: false } });
      let checked = 0;
      for (const surface of ['api', 'card']) {
        const doc = (await request(w.api).get(`/_sandbox/openapi.json?surface=${surface}`)).body;
        ajv.addSchema(doc, surface);
        for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
          for (const [method, op] of Object.entries(ops)) {
            const media = op.requestBody?.content['application/json'];
            if (!media) continue;
            expect({ route: `${method} ${path}`, example: media.example }).toEqual({ route: `${method} ${path}`, example: expect.anything() });
            expect({ route: `${method} ${path}`, schema: ajv.validateSchema(media.schema) }).toEqual({ route: `${method} ${path}`, schema: true });
            // The schema in its place in the document, whose components its $refs name: compiled once each.
            const validate = ajv.getSchema(`${surface}#/paths/${pointer(path)}/${method}/requestBody/content/application~1json/schema`)!;
            const valid = validate(media.example);
            expect({ route: `${method} ${path}`, errors: validate.errors }).toEqual({ route: `${method} ${path}`, errors: null });
            expect(valid).toBe(true);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThanOrEqual(12);
    } finally {
      w.close();
    }
  });
});
