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
  return serverMaking(() => app, true);
}

/**
 * The server of an app made when its first connection comes (the card API's at a start: the API's first
 * answer does not wait for it). The app is made, and the prototypes set, in the server's 'connection'
 * event, before Node has read a byte of that connection, so every request is made with them too.
 */
export function serverOfAppMadeLater(make: () => Express): Server {
  return serverMaking(make, false);
}

function serverMaking(make: () => Express, now: boolean): Server {
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  let app: Express | undefined;
  const made = (): Express => {
    if (app === undefined) {
      app = make();
      Request.prototype = app.request;
      Response.prototype = app.response;
    }
    return app;
  };
  if (now) made();
  const server = createServer(
    {
      IncomingMessage: Request as unknown as typeof IncomingMessage,
      ServerResponse: Response as unknown as typeof ServerResponse,
    },
    (req, res) => made()(req, res),
  );
  if (!now) server.on('connection', made);
  return server;
}
