// The document client every module shares (lib/db/client.ts).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamo, TABLE } from '../../lib/db/client';

it('has no SDK logger middleware: no call pays for a filtered copy of its input and output', async () => {
  expect(dynamo.middlewareStack.identify().some((m) => m.startsWith('loggerMiddleware'))).toBe(false);
  // What the middleware would hand the logger: the filtered copy is never made.
  const info = jest.fn();
  const saved = dynamo.config.logger;
  dynamo.config.logger = { ...saved, info, debug: jest.fn(), warn: jest.fn(), error: jest.fn() };
  try {
    await db.send(new GetCommand({ TableName: TABLE, Key: { PK: 'USER#NONE', SK: 'PROFILE' } }));
  } finally {
    dynamo.config.logger = saved;
  }
  expect(info).not.toHaveBeenCalled();
});
