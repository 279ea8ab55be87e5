// The HTTP server of an Express app, whose requests and responses are made with the app's own
// prototypes (app.request, app.response) from the start.
import { IncomingMessage, type Server, ServerResponse, createServer } from 'node:http';
import type { Express } from 'express';

/**
 * Express gives every request and response its prototypes as it receives them
 * (`Object.setPrototypeOf`), which V8 pays for on every request: under load it cost more than half of
 * what a minimal Express app spends on a request. Made with those prototypes by Node itself (the
 * server's IncomingMessage and ServerResponse options), they already have them, and Express's call
 * changes nothing. The objects are the same as before: Node's, with Express's methods.
 */
export function serverFor(app: Express): Server {
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return createServer(
    {
      IncomingMessage: Request as unknown as typeof IncomingMessage,
      ServerResponse: Response as unknown as typeof ServerResponse,
    },
    app,
  );
}
