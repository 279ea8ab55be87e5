// Near misses, pure: the nearest route by method and path, the other address, the credentials.
import { credentialsNote, distance, nearestRoute, noRouteNote, routeOf } from '../../src/requests/near-miss';

const API = [
  { method: 'POST', path: '/v1/payments' },
  { method: 'GET', path: '/v1/payments' },
  { method: 'GET', path: '/v1/payments/{id}' },
  { method: 'POST', path: '/v1/payments/{id}/capture' },
  { method: 'POST', path: '/v1/payments/{id}/splits' },
  { method: 'POST', path: '/v1/payments/{id}/splits/{splitId}/refunds' },
];
const CARD = [
  { method: 'POST', path: '/v1/payments' },
  { method: 'GET', path: '/v1/payments/{id}' },
  { method: 'POST', path: '/v1/payments/{id}/capture' },
];

describe('near misses', () => {
  it('finds the route a path fills, in any case and with a trailing slash', () => {
    expect(routeOf(API, 'POST', '/V1/Payments/5014571/Capture/')).toEqual({ method: 'POST', path: '/v1/payments/{id}/capture' });
    expect(routeOf(API, 'GET', '/v1/payments/5014571/capture')).toBeUndefined();
  });

  it('names the nearest route of a slip, and none for another request altogether', () => {
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(noRouteNote('POST', '/v1/payment', 'api', API, CARD)).toBe('POST /v1/payment: no such route; nearest POST /v1/payments');
    expect(noRouteNote('POST', '/v1/payments/5014571/captur', 'api', API, CARD)).toBe('POST /v1/payments/5014571/captur: no such route; nearest POST /v1/payments/{id}/capture');
    expect(noRouteNote('PUT', '/v1/payments/5014571', 'api', API, CARD)).toBe('PUT /v1/payments/5014571: no such route; nearest GET /v1/payments/{id}');
    expect(noRouteNote('POST', '/v1/payments/5/splits/7/refund', 'api', API, CARD)).toBe('POST /v1/payments/5/splits/7/refund: no such route; nearest POST /v1/payments/{id}/splits/{splitId}/refunds');
    expect(nearestRoute(API, 'GET', '/v1/completely/different/things')).toBeUndefined();
  });

  it('says when the route is on the other address', () => {
    expect(noRouteNote('POST', '/v1/payments/5/splits', 'card', CARD, API)).toBe(
      'POST /v1/payments/5/splits on the card address: no such route; POST /v1/payments/{id}/splits is on the API address',
    );
  });

  it('says why credentials failed without the key', () => {
    expect(credentialsNote({ kind: 'wrong-key', siteId: 30201 })).toBe('SiteID 30201: wrong APIKey');
    expect(credentialsNote({ kind: 'no-such-site', siteId: 1 })).toBe('SiteID 1: no such site');
    expect(credentialsNote({ kind: 'no-key', siteId: 30202 })).toBe('SiteID 30202: a linked site, without an APIKey of its own');
    expect(credentialsNote({ kind: 'missing' })).toBe('no Authorization header');
    expect(credentialsNote({ kind: 'not-basic' })).toBe('Authorization is not Basic');
    expect(credentialsNote({ kind: 'malformed' })).toBe('Authorization is not base64 of SiteID:APIKey');
  });
});
