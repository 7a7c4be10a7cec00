// Where X-Ray is on (a deployed stage), every request logs one line joining its X-Trace-Id to
// its X-Ray trace and to its access log line (lib/http/request-log.ts); a refused request too.
// Locally (no _X_AMZN_TRACE_ID) there is nothing to join to, and no line.
import { call } from '../support/invoke';
import { handler as openapiH } from '../../functions/docs/openapi';
import { handler as meH } from '../../functions/users/me';

const lines: string[] = [];
let out: jest.SpyInstance;
let err: jest.SpyInstance;
beforeEach(() => {
  lines.length = 0;
  const keep = (chunk: unknown) => { lines.push(String(chunk)); return true; };
  out = jest.spyOn(process.stdout, 'write').mockImplementation(keep);
  err = jest.spyOn(process.stderr, 'write').mockImplementation(keep);
});
afterEach(() => { out.mockRestore(); err.mockRestore(); delete process.env._X_AMZN_TRACE_ID; });
const requestLines = () => lines.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((l) => l.event === 'request');

it('logs each request with its trace id, X-Ray trace id, route, status and the API\'s request id', async () => {
  process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
  const ok = await call(openapiH, 'GET /openapi.json', { headers: { 'X-Trace-Id': 'client-trace-1' } });
  expect(ok.status).toBe(200);
  const refused = await call(meH, 'GET /users/me', { headers: { 'X-Trace-Id': 'client-trace-2' } });
  expect(refused.status).toBe(401);
  expect(requestLines()).toEqual([
    expect.objectContaining({ level: 'INFO', traceId: 'client-trace-1', xrayTraceId: '1-5759e988-bd862e3fe1be46a994272793', route: 'GET /openapi.json', status: 200, apiRequestId: expect.stringMatching(/^req-/), lambdaRequestId: expect.any(String) }),
    expect.objectContaining({ traceId: 'client-trace-2', xrayTraceId: '1-5759e988-bd862e3fe1be46a994272793', route: 'GET /users/me', status: 401 }),
  ]);
});

it('logs no request line without X-Ray (npm start, the tests)', async () => {
  expect((await call(openapiH, 'GET /openapi.json')).status).toBe(200);
  expect(requestLines()).toEqual([]);
});
