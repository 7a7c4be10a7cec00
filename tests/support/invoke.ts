// Calls a real handler (through its whole middy stack) with a real API Gateway HTTP API
// v2 event, the way Lambda does.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>;

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
  /** The connection's address API Gateway gives (requestContext.http.sourceIp); 127.0.0.1 unless said. */
  sourceIp?: string;
}

export interface CallResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, string>;
  text: string;
}

let requestSeq = 0;

export function apiEvent(routeKey: string, opts: CallOptions = {}): APIGatewayProxyEventV2 {
  const [method, template] = routeKey.split(' ') as [string, string];
  const rawPath = template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(opts.params?.[k] ?? ''));
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
  let body: string | undefined = opts.rawBody;
  if (body === undefined && opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const rawQueryString = new URLSearchParams(opts.query ?? {}).toString();
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    queryStringParameters: opts.query && Object.keys(opts.query).length ? { ...opts.query } : undefined,
    pathParameters: opts.params && Object.keys(opts.params).length ? { ...opts.params } : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: opts.sourceIp ?? '127.0.0.1', userAgent: 'jest' },
      requestId: `req-${++requestSeq}`,
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '512',
    awsRequestId: `aws-${requestSeq}`,
    logGroupName: 'test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export async function call(handler: Handler, routeKey: string, opts: CallOptions = {}): Promise<CallResult> {
  const res = (await handler(apiEvent(routeKey, opts), lambdaContext())) as APIGatewayProxyStructuredResultV2;
  const text = res.body ?? '';
  let body: unknown = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers ?? {})) headers[k.toLowerCase()] = String(v);
  return { status: res.statusCode ?? 200, body, headers, text };
}
