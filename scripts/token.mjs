#!/usr/bin/env node
// `npm run token -- <username> [--scope logs:read] [--ttl seconds]`: prints a token for a
// user of the running local stack, signed with the local stage's development secret.
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { localClient } from './lib/local-dynamodb.mjs';
import { localStack } from './lib/local-stack.mjs';

const local = JSON.parse(readFileSync(new URL('../config/local.json', import.meta.url), 'utf8'));
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const scope = opt('--scope');
const ttl = Number(opt('--ttl') ?? 86400);
const username = args[0]?.toLowerCase();
if (!username) {
  process.stderr.write('usage: npm run token -- <username> [--scope logs:read] [--ttl seconds]\n');
  process.exit(2);
}
const endpoint = localStack().dynamodbEndpoint;
const db = DynamoDBDocumentClient.from(localClient(endpoint));
// The username claim of lib/keys.ts (keys.username); this plain-Node script cannot import the TypeScript.
const claim = await db.send(new GetCommand({ TableName: local.tableName, Key: { PK: `USERNAME#${username}`, SK: 'CLAIM' } }));
if (!claim.Item) {
  process.stderr.write(`No user @${username} in the local stack.\n`);
  process.exit(1);
}
const token = await new SignJWT(scope ? { scope } : {})
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setSubject(claim.Item.userId)
  .setIssuer(process.env.JWT_ISSUER || local.issuer)
  .setAudience(process.env.JWT_AUDIENCE || local.audience)
  .setIssuedAt()
  .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
  .sign(new TextEncoder().encode(local.jwtSecret));
process.stdout.write(`${token}\n`);
