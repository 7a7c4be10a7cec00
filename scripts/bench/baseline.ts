// The baseline of the bundle checks: a handler that does one GetItem with the document
// client and nothing else, built with the same esbuild settings as every function.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const endpoint = process.env.DYNAMODB_ENDPOINT;
const db = DynamoDBDocumentClient.from(new DynamoDBClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
}));

export const handler = async () => {
  const res = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: 'USER#BASELINE', SK: 'PROFILE' } }));
  return { statusCode: 200, body: JSON.stringify({ success: true, found: Boolean(res.Item) }) };
};
