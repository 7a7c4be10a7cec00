// The one place an API Gateway answer is built: every answer, an error's envelope included,
// is JSON with the same Content-Type.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiReply } from './request';

export function toResponse(reply: ApiReply): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: reply.status ?? 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...reply.headers },
    body: JSON.stringify(reply.raw ? reply.body : { success: true, ...reply.body }),
  };
}
