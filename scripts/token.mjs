#!/usr/bin/env node
// `npm run token -- <username> [--scope "logs:read moderate"] [--ttl seconds] [--stage <stage>]`:
// prints an access token for a user of the running local stack, signed with the local stage's
// development key (config/local.json jwtKeys). Every access token belongs to a session (its
// `sid`), checked on each request, so this writes a real session item too (userAgent "npm run token"), which ends
// when the token expires. No refresh token is handed out: run the script again.
//
// With `--stage <stage>` (not local) it does the same on a deployed stage: the table
// `aperture-<stage>` (TABLE_NAME overrides) through the AWS credentials and region of the
// environment, signed with the current key of the stage's key set, which the script reads
// from SSM (/aperture/<stage>/jwt-keys, JWT_KEYS_PARAMETER overrides; docs/OPERATIONS.md,
// "Moderators"). The key is used for this one token and never printed.
import { readFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { ulid } from 'ulid';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { localClient } from './lib/local-dynamodb.mjs';
import { localStack } from './lib/local-stack.mjs';
import { currentKey } from './lib/ssm-keys.mjs';

const local = JSON.parse(readFileSync(new URL('../config/local.json', import.meta.url), 'utf8'));
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const scope = opt('--scope');
const stage = opt('--stage');
const deployed = stage !== undefined && stage !== 'local';
// The lifetime of the service's own tokens (lib/config.ts TOKEN_TTL_SECONDS) unless asked; never
// longer: the service refuses a token whose exp - iat exceeds it (contract section 3).
const lifetime = Number(process.env.TOKEN_TTL_SECONDS ?? 900);
const ttl = Number(opt('--ttl') ?? lifetime);
const username = args[0]?.toLowerCase();
if (!username || !Number.isInteger(ttl) || ttl <= 0) {
  process.stderr.write('usage: npm run token -- <username> [--scope "logs:read moderate"] [--ttl seconds] [--stage <stage>]\n');
  process.exit(2);
}
if (ttl > lifetime) {
  process.stderr.write(`--ttl ${ttl} is longer than the service's token lifetime (TOKEN_TTL_SECONDS=${lifetime}), and the service would refuse the token.\n`);
  process.exit(2);
}
const table = process.env.TABLE_NAME || (deployed ? `aperture-${stage}` : local.tableName);
const client = deployed ? new DynamoDBClient({}) : undefined;
let key = { kid: local.jwtKeys.current, secret: local.jwtKeys.keys[local.jwtKeys.current] };
if (deployed) {
  const name = process.env.JWT_KEYS_PARAMETER || `/aperture/${stage}/jwt-keys`;
  try {
    // SSM_ENDPOINT: a stand-in server (tests), as for the functions.
    key = await currentKey({ name, region: await client.config.region(), endpoint: process.env.SSM_ENDPOINT, credentials: () => client.config.credentials() });
  } catch (err) {
    process.stderr.write(`--stage ${stage} signs with the stage's current key, read from SSM ${name}: ${err.message} (docs/OPERATIONS.md, "Moderators").\n`);
    process.exit(2);
  }
  if (Object.values(local.jwtKeys.keys).includes(key.secret)) {
    process.stderr.write(`${name} holds the development key of config/local.json: refused.\n`);
    process.exit(2);
  }
}
const db = DynamoDBDocumentClient.from(client ?? localClient(localStack().dynamodbEndpoint));
// The keys and the session item of lib/keys.ts and lib/auth/sessions.ts (newSession); this
// plain-Node script cannot import the TypeScript. tests/integration/token-script.test.ts
// checks that what it writes passes the service's session check.
const claim = await db.send(new GetCommand({ TableName: table, Key: { PK: `USERNAME#${username}`, SK: 'CLAIM' }, ConsistentRead: true }));
const userId = claim.Item?.userId;
const user = userId && (await db.send(new GetCommand({ TableName: table, Key: { PK: `USER#${userId}`, SK: 'PROFILE' }, ConsistentRead: true }))).Item;
if (!user) {
  process.stderr.write(`No user @${username} in ${deployed ? `table ${table}` : 'the local stack'}.\n`);
  process.exit(1);
}
if (user.suspendedAt || user.deletedAt) {
  // Its token would be refused (401) on every request: say so instead.
  process.stderr.write(`@${username} is ${user.deletedAt ? 'deleted' : 'suspended'}: no token.\n`);
  process.exit(1);
}
const nowMs = Date.now();
// One clock reading for iat, exp and the session's expiry: exp - iat is exactly the lifetime.
const iat = Math.floor(nowMs / 1000);
const exp = iat + ttl;
const sessionId = ulid(nowMs);
const unusedRefreshToken = `${userId}.${sessionId}.${randomBytes(32).toString('base64url')}`;
await db.send(new PutCommand({
  TableName: table,
  Item: {
    PK: `USER#${userId}`, SK: `SESSION#${sessionId}`, type: 'SESSION', id: sessionId, userId,
    epoch: user.sessionEpoch ?? 0,
    tokenHash: createHash('sha256').update(unusedRefreshToken).digest('base64url'),
    createdAt: new Date(nowMs).toISOString(), lastUsedAt: new Date(nowMs).toISOString(),
    userAgent: 'npm run token', expiresAt: exp,
  },
  ConditionExpression: 'attribute_not_exists(PK)',
}));
// sep: the account's session epoch the session belongs to (lib/auth/tokens.ts).
const token = await new SignJWT({ sid: sessionId, sep: user.sessionEpoch ?? 0, ...(scope ? { scope } : {}) })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: key.kid })
  .setSubject(userId)
  .setIssuer(process.env.JWT_ISSUER || local.issuer)
  .setAudience(process.env.JWT_AUDIENCE || local.audience)
  .setIssuedAt(iat)
  .setExpirationTime(exp)
  .sign(new TextEncoder().encode(key.secret));
process.stdout.write(`${token}\n`);
