// GET /docs: an interactive reference of the API (Swagger UI) over the document that
// GET /openapi.json serves, so it always shows the API that serves it and "Try it out"
// calls that same origin. Public, like /openapi.json. Its own function: Swagger UI's
// 1.7 MB bundle travels in this function's package only (tests/deploy/bundle-size.test.ts).
// It takes no input but the path, so it does not use the API's middy stack (no JSON answer,
// nothing to validate); it reads the trace headers as the stack does, and every answer,
// errors included, carries X-Trace-Id (contract section 9).
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { vendorAssets } from './assets';
import { readTrace } from '../../lib/http/trace';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Aperture API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// Every operation listed, its parameters and answers one click away; "Try it out" sends the
// request to the server the document names (the origin that served it).
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  persistAuthorization: false,
});
`;

// No script of another origin, no inline script: the page runs only its own files.
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

type Result = APIGatewayProxyStructuredResultV2;

// `private`: each answer carries its own X-Trace-Id, which no shared cache may hand to another
// client; a browser still keeps the files.
function text(status: number, type: string, body: string, cache = 'private, max-age=300'): Result {
  return { statusCode: status, headers: { 'Content-Type': type, 'Cache-Control': cache, ...SECURITY_HEADERS }, body };
}

const json = (status: number, body: Record<string, unknown>): Result =>
  ({ statusCode: status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });

export const handler = async (event: APIGatewayProxyEventV2): Promise<Result> => {
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const { trace, problems } = readTrace(headers);
  // It takes no query parameter: one it does not know is refused, as every route refuses one.
  for (const name of Object.keys(event.queryStringParameters ?? {})) problems.push({ path: name, message: 'is not a known query parameter' });
  const res = problems.length
    ? json(400, { success: false, message: 'The request is not valid.', code: 'VALIDATION_ERROR', details: problems })
    : serve(event);
  return { ...res, headers: { ...res.headers, 'X-Trace-Id': trace.traceId } };
};

function serve(event: APIGatewayProxyEventV2): Result {
  const asset = event.pathParameters?.asset;
  if (asset === undefined) return text(200, 'text/html; charset=utf-8', PAGE);
  if (asset === 'init.js') return text(200, 'application/javascript; charset=utf-8', INIT);
  const file = Object.hasOwn(vendorAssets(), asset) ? vendorAssets()[asset]! : undefined;
  if (!file) return json(404, { success: false, message: 'No such route.', code: 'NOT_FOUND' });
  // The vendor files change only with the package version: cached for a day.
  const cache = 'private, max-age=86400';
  if (/\bgzip\b/i.test(event.headers?.['accept-encoding'] ?? '')) {
    return {
      statusCode: 200,
      headers: { 'Content-Type': file.type, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding', 'Cache-Control': cache, ...SECURITY_HEADERS },
      body: file.gzipped.toString('base64'),
      isBase64Encoded: true,
    };
  }
  const plain = text(200, file.type, gunzipSync(file.gzipped).toString('utf8'), cache);
  return { ...plain, headers: { ...plain.headers, Vary: 'Accept-Encoding' } };
}
