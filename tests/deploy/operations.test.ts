// resources/operations.js refuses a template whose /auth/* routes are not all throttled on
// their own, or a throttle for a route that does not exist; the packaged template itself is
// checked in tests/deploy/package.test.ts.
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/manifests.mjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { routeThrottles } = require(join(ROOT, 'resources/operations.js')) as {
  routeThrottles(resources: Record<string, unknown>, declared: Record<string, { rate: unknown; burst: unknown }>): { settings: Record<string, unknown>; dependsOn: string[] };
};

const route = (key: string) => ({ Type: 'AWS::ApiGatewayV2::Route', Properties: { RouteKey: key } });
const resources = { RouteLogin: route('POST /auth/login'), RouteRefresh: route('POST /auth/refresh'), RouteFeed: route('GET /posts/feed') };

it('sets the declared throttles by route key, numbers from the stage params, and makes the stage wait for those routes', () => {
  const out = routeThrottles(resources, { 'POST /auth/login': { rate: '10', burst: '20' }, 'POST /auth/refresh': { rate: 50, burst: 100 } });
  expect(out.settings).toEqual({
    'POST /auth/login': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    'POST /auth/refresh': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
  });
  expect(out.dependsOn).toEqual(['RouteLogin', 'RouteRefresh']);
});

it('refuses an /auth/* route without a throttle, a throttle of no route, and a throttle that is not a positive number', () => {
  expect(() => routeThrottles(resources, { 'POST /auth/login': { rate: 10, burst: 20 } })).toThrow(/route "POST \/auth\/refresh" has no throttle/);
  expect(() => routeThrottles(resources, { 'POST /auth/login': { rate: 10, burst: 20 }, 'POST /auth/refresh': { rate: 1, burst: 2 }, 'POST /auth/nope': { rate: 1, burst: 2 } }))
    .toThrow(/"POST \/auth\/nope" is not a route of the service/);
  expect(() => routeThrottles(resources, { 'POST /auth/login': { rate: '', burst: 20 }, 'POST /auth/refresh': { rate: 1, burst: 2 } })).toThrow(/positive rate/);
});
