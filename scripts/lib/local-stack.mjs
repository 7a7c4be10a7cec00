// Where the running `npm start` stack is: written by scripts/start.mjs when it is ready,
// read by the token and seed scripts. DYNAMODB_ENDPOINT and BASE_URL override it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const STACK_FILE = fileURLToPath(new URL('../../.local-stack.json', import.meta.url));

export function localStack() {
  const file = existsSync(STACK_FILE) ? JSON.parse(readFileSync(STACK_FILE, 'utf8')) : {};
  const stack = {
    baseUrl: process.env.BASE_URL ?? file.baseUrl ?? 'http://localhost:3000',
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT ?? file.dynamodbEndpoint,
  };
  if (!stack.dynamodbEndpoint) {
    process.stderr.write('The local stack is not running: start it with `npm start` (or set DYNAMODB_ENDPOINT).\n');
    process.exit(2);
  }
  return stack;
}
