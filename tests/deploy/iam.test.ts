// resources/iam.json declares the DynamoDB actions of every function, and only of functions.
import { join } from 'node:path';
import { ROOT, functionDefinitions, functionNames, routes } from '../../scripts/lib/manifests.mjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { declarations, invocations, jwtKeyReaders } = require(join(ROOT, 'resources/per-function-iam.js')) as {
  declarations(root: string, names: string[]): Record<string, string[]>;
  invocations(root: string, names: string[]): Record<string, string[]>;
  jwtKeyReaders(root: string, functions: Record<string, { events?: unknown[] }>): string[];
};

it('every function of the manifests has a declaration, each a list of single DynamoDB actions', () => {
  const declared = declarations(ROOT, functionNames());
  expect(Object.keys(declared).sort()).toEqual(functionNames().sort());
  for (const actions of Object.values(declared)) for (const a of actions) expect(a).toMatch(/^dynamodb:[A-Z][A-Za-z]+$/);
});

it('refuses to package a function without a declaration', () => {
  expect(() => declarations(ROOT, [...functionNames(), 'postsArchive'])).toThrow(/"postsArchive" has no entry in resources\/iam.json/);
});

it('lets exactly the two deletions, a moderator\'s removal, the worker itself, the sweeper and the stream consumer (an account deletion deletes posts and comments) invoke the cleanup worker, and nothing else', () => {
  expect(invocations(ROOT, functionNames())).toEqual({
    postsDelete: ['cleanupWorker'], commentsDelete: ['cleanupWorker'], moderationResolve: ['cleanupWorker'], cleanupWorker: ['cleanupWorker'], cleanupSweeper: ['cleanupWorker'],
    // The stream consumer also hands a failed Web Push to pushRetry, which schedules its own next attempt.
    streamConsumer: ['cleanupWorker', 'pushRetry'], pushRetry: ['pushRetry'],
  });
  // A target that is not a function of the service (a pattern among them) is refused.
  expect(() => invocations(ROOT, functionNames().filter((n) => n !== 'cleanupWorker'))).toThrow(/may invoke "cleanupWorker", which is not a function/);
});

it('grants the JWT key set to every function with a route but the /docs page, and to no background function', () => {
  const routed = [...new Set(routes().map((r) => r.name))];
  // And the WebSocket API's $connect, which checks its ?token= as the HTTP routes check theirs.
  expect(jwtKeyReaders(ROOT, functionDefinitions())).toEqual([...routed.filter((n) => n !== 'docsPage'), 'liveConnect'].sort());
  // A new route gets it without a line anywhere; a new background function does not.
  const more = { ...functionDefinitions(), postsArchive: { events: [{ httpApi: { method: 'POST', path: '/posts/archive' } }] }, archiveWorker: { events: [] } };
  expect(jwtKeyReaders(ROOT, more)).toContain('postsArchive');
  expect(jwtKeyReaders(ROOT, more)).not.toContain('archiveWorker');
  // The exception must name a routed function of the service.
  const { docsPage: _gone, ...withoutPage } = functionDefinitions();
  expect(() => jwtKeyReaders(ROOT, withoutPage)).toThrow(/jwtKeys.except names "docsPage", which is not a function/);
  expect(() => jwtKeyReaders(ROOT, { ...functionDefinitions(), docsPage: { events: [] } })).toThrow(/"docsPage", which has no HTTP route/);
});
