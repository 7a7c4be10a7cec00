// Every test process talks to the DynamoDB Local of global-setup, on the local stage.
process.env.STAGE = 'local';
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
