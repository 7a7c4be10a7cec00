// Every test process talks to its worker's DynamoDB Local of global-setup, on the local stage.
const endpoints = JSON.parse(process.env.DYNAMODB_ENDPOINTS ?? '[]') as string[];
if (endpoints.length) process.env.DYNAMODB_ENDPOINT = endpoints[(Number(process.env.JEST_WORKER_ID ?? '1') - 1) % endpoints.length];
process.env.STAGE = 'local';
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
