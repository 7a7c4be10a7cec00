// `serverless package --stage prod`, offline (no AWS credentials, no network), and the
// CloudFormation template it makes: one function per endpoint with its own least-privilege
// role (its DynamoDB actions; lambda:InvokeFunction on the cleanup worker for the six
// functions that start it: the two deletions, a moderator's removal, the worker, the sweeper, the stream consumer), the sweeper's schedule, the HTTP API routes, the table with its indexes, TTL, PITR and
// deletion protection, stage throttling, log retention, the JWT key set's SSM parameter (its
// name in the environment, never a secret; each routed function may read and decrypt it), and the
// change stream's consumer with its retries and on-failure queue.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, functionNames, routes } from '../../scripts/lib/manifests.mjs';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string | string[]; DeletionPolicy?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
const iam = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).functions as Record<string, string[]>;
const table = JSON.parse(readFileSync(join(ROOT, 'resources/table.json'), 'utf8'));
const s3Iam = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).s3 as Record<string, Record<string, string[]>>;
const indexNames: string[] = table.GlobalSecondaryIndexes.map((ix: { IndexName: string }) => ix.IndexName);

let dir: string;
let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aperture-package-'));
  // This process's environment keeps what reaching the npm registry needs (npm's config and
  // the machine's CA bundle: packaging fetches sharp's linux-arm64 binaries with `npm pack`);
  // every AWS setting is dropped, so packaging proves it needs no credentials.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
  const env: NodeJS.ProcessEnv = {
    ...inherited, HOME: dir, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off', ESBUILD_WORK_FOLDER: '.esbuild-package',
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'), AWS_CONFIG_FILE: join(dir, 'none'),
  };
  await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/serverless/bin/serverless.js'), 'package', '--stage', 'prod', '--package', join(dir, 'out')], {
    cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024,
  });
  resources = JSON.parse(readFileSync(join(dir, 'out', 'cloudformation-template-update-stack.json'), 'utf8')).Resources;
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('packages the prod stage offline into a template with all of it', () => {
  // One Lambda function per manifest function.
  const lambdas = ofType('AWS::Lambda::Function');
  const names = functionNames();
  expect(lambdas.map(([, r]) => r.Properties.FunctionName).sort()).toEqual(names.map((n) => `aperture-prod-${n}`).sort());

  // The HTTP API routes are the manifests' routes; "*" is the $default route.
  const routeKeys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey).sort();
  expect(routeKeys).toEqual(routes().map((r) => (r.path === '*' ? '$default' : r.key)).sort());

  // The table: indexes, TTL, point-in-time recovery, deletion protection, kept on stack deletion.
  const t = resources.Table!;
  expect(t.Type).toBe('AWS::DynamoDB::Table');
  expect(t.Properties.TableName).toBe('aperture-prod');
  expect(t.Properties.GlobalSecondaryIndexes.map((ix: { IndexName: string }) => ix.IndexName)).toEqual(indexNames);
  expect(t.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  expect(t.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  expect(t.Properties.DeletionProtectionEnabled).toBe(true);
  expect(t.DeletionPolicy).toBe('Retain');

  // Default route throttling of the stage, from the prod params.
  const stage = resources.HttpApiStage!;
  expect(stage.Properties.StageName).toBe('$default');
  expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 });
  expect(stage.Properties.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': ['HttpApiLogGroup', 'Arn'] });

  // Every log group has a retention.
  const logGroups = ofType('AWS::Logs::LogGroup');
  expect(logGroups.length).toBe(names.length + 1);
  for (const [, lg] of logGroups) expect(lg.Properties.RetentionInDays).toBe(30);

  // No shared role; each function its own, allowing only its declared DynamoDB actions
  // on the table and its indexes, and writing only to its own log group.
  expect(resources.IamRoleLambdaExecution).toBeUndefined();
  const tableArn = { 'Fn::GetAtt': ['Table', 'Arn'] };
  const indexArns = indexNames.map((ix) => ({ 'Fn::Join': ['', [tableArn, `/index/${ix}`]] }));
  // Invoking: the cleanup worker's ARN only (started after a deletion, continuing itself, restarted by the sweeper).
  // eslint-disable-next-line no-template-curly-in-string
  const workerArn = { 'Fn::Sub': 'arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:aperture-prod-cleanupWorker' };
  expect(lambdas.map(([, r]) => r.Properties.FunctionName)).toContain('aperture-prod-cleanupWorker');
  const invokers: string[] = [];
  const streamReaders: string[] = [];
  const s3Used: Record<string, Record<string, string[]>> = {};
  const keyReaders: string[] = [];
  // eslint-disable-next-line no-template-curly-in-string
  const keyParameterArn = { 'Fn::Sub': 'arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/aperture/prod/jwt-keys' };
  for (const [id, fn] of lambdas) {
    const name = fn.Properties.FunctionName.replace('aperture-prod-', '') as string;
    const env = fn.Properties.Environment.Variables;
    // The signing keys are read from SSM at run time (lib/auth/keys.ts): the environment names
    // the parameter, and holds no secret nor a reference CloudFormation would resolve into one.
    expect(env.JWT_KEYS_PARAMETER).toBe('/aperture/prod/jwt-keys');
    expect(env.JWT_KEYS_CACHE_SECONDS).toBe('300');
    expect(env).not.toHaveProperty('JWT_SECRET');
    expect(env).not.toHaveProperty('JWT_KEYS');
    expect(JSON.stringify(env)).not.toMatch(/\{\{resolve:|aperture-local-development-secret/);
    expect(env.TABLE_NAME).toBe('aperture-prod');
    expect(env.DYNAMODB_ENDPOINT).toBe('');
    // Unset in the packaging shell: the local stage's issuer and audience (README, Configuration).
    expect(env).toMatchObject({ JWT_ISSUER: 'aperture', JWT_AUDIENCE: 'aperture-app', TOKEN_TTL_SECONDS: '900', SESSION_TTL_DAYS: '30', LOG_RETENTION_DAYS: '30', FANOUT_MAX_FOLLOWERS: '10000' });

    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    const others = lambdas.filter(([otherId]) => otherId !== id).map(([, o]) => o.Properties.Role['Fn::GetAtt'][0]);
    expect(others).not.toContain(roleId);
    const role = resources[roleId]!;
    expect(role.Type).toBe('AWS::IAM::Role');
    const statements = role.Properties.Policies.flatMap((p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement) as
      { Effect: string; Action: string[]; Resource: unknown[] }[];
    const logGroupId = id.replace(/LambdaFunction$/, 'LogGroup');
    const dynamo = new Set<string>();
    for (const s of statements) {
      expect(s.Effect).toBe('Allow');
      for (const a of s.Action) expect(a).not.toMatch(/\*/);
      if (s.Action.every((a) => a.startsWith('logs:'))) {
        expect(s.Resource).toEqual([{ 'Fn::GetAtt': [logGroupId, 'Arn'] }]);
        continue;
      }
      // The stream consumer's event source mapping reads the table's stream and sends what fails to its queue.
      if (s.Action.includes('dynamodb:GetRecords')) {
        expect(s.Action).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
        expect(s.Resource).toEqual([{ 'Fn::GetAtt': ['Table', 'StreamArn'] }]);
        streamReaders.push(name);
        continue;
      }
      if (s.Action.some((a) => a.startsWith('sqs:'))) {
        expect(s.Action).toEqual(['sqs:SendMessage']);
        expect(s.Resource).toEqual([{ 'Fn::GetAtt': ['StreamFailureQueue', 'Arn'] }]);
        continue;
      }
      if (s.Action.some((a) => a.startsWith('s3:'))) {
        // The media bucket's objects under one prefix (resources/iam.json `s3`).
        for (const a of s.Action) expect(a).toMatch(/^s3:[A-Za-z]+$/);
        const [sub, vars] = (s.Resource as { 'Fn::Sub': [string, { Bucket: unknown }] }[])[0]!['Fn::Sub'];
        expect(vars.Bucket).toEqual({ 'Fn::Sub': 'aperture-media-prod-${AWS::AccountId}' }); // eslint-disable-line no-template-curly-in-string
        const prefix = /^arn:\$\{AWS::Partition\}:s3:::\$\{Bucket\}\/([a-z]+\/)\*$/.exec(sub)![1]!;
        (s3Used[name] ??= {})[prefix] = [...s.Action].sort();
        continue;
      }
      // The JWT key set: reading that one parameter, and decrypting it through SSM only.
      if (s.Action.includes('ssm:GetParameter')) {
        expect(s).toEqual({ Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: [keyParameterArn] });
        keyReaders.push(name);
        continue;
      }
      if (s.Action.includes('kms:Decrypt')) {
        expect(s).toEqual({
          Effect: 'Allow', Action: ['kms:Decrypt'],
          Resource: [{ 'Fn::Sub': 'arn:${AWS::Partition}:kms:${AWS::Region}:${AWS::AccountId}:key/*' }], // eslint-disable-line no-template-curly-in-string
          Condition: { StringEquals: {
            'kms:ViaService': { 'Fn::Sub': 'ssm.${AWS::Region}.amazonaws.com' }, // eslint-disable-line no-template-curly-in-string
            'kms:EncryptionContext:PARAMETER_ARN': keyParameterArn,
          } },
        });
        continue;
      }
      if (s.Action.some((a) => a.startsWith('lambda:'))) {
        expect(s.Action).toEqual(['lambda:InvokeFunction']);
        expect(s.Resource).toEqual([workerArn]);
        invokers.push(name);
        continue;
      }
      for (const a of s.Action) { expect(a).toMatch(/^dynamodb:[A-Za-z]+$/); dynamo.add(a); }
      for (const r of s.Resource) expect([tableArn, ...indexArns]).toContainEqual(r);
      if (s.Resource.some((r) => JSON.stringify(r).includes('/index/'))) expect(s.Action).toEqual(['dynamodb:Query']);
    }
    expect([...dynamo].sort()).toEqual([...(iam[name] ?? ['<no declaration>'])].sort());
  }
  expect(invokers.sort()).toEqual(['cleanupSweeper', 'cleanupWorker', 'commentsDelete', 'moderationResolve', 'postsDelete', 'streamConsumer']);
  expect(streamReaders).toEqual(['streamConsumer']);
  // Every function with a route reads the keys (lib/http verifies tokens), but the /docs page,
  // which never reads one; no background function does.
  expect(keyReaders.sort()).toEqual([...new Set(routes().map((r) => r.name))].filter((n) => n !== 'docsPage').sort());
  for (const name of keyReaders) {
    const role = resources[lambdas.find(([, fn]) => fn.Properties.FunctionName === `aperture-prod-${name}`)![1].Properties.Role['Fn::GetAtt'][0]]!;
    const actions = role.Properties.Policies[0].PolicyDocument.Statement.flatMap((st: { Action: string[] }) => st.Action);
    expect(actions).toContain('kms:Decrypt');
  }

  // The change stream (images before and after) feeds one consumer, with bounded retries,
  // bisection, per-record failure reports and an on-failure queue: no event is lost in silence.
  expect(t.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  const mappings = ofType('AWS::Lambda::EventSourceMapping');
  expect(mappings).toHaveLength(1);
  const [, mapping] = mappings[0]!;
  const consumerId = lambdas.find(([, fn]) => fn.Properties.FunctionName === 'aperture-prod-streamConsumer')![0];
  expect(mapping.Properties).toMatchObject({
    EventSourceArn: { 'Fn::GetAtt': ['Table', 'StreamArn'] },
    FunctionName: { 'Fn::GetAtt': [consumerId, 'Arn'] },
    StartingPosition: 'TRIM_HORIZON',
    BatchSize: 100,
    MaximumRetryAttempts: 5,
    BisectBatchOnFunctionError: true,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['StreamFailureQueue', 'Arn'] } } },
  });
  expect(mapping.Properties.FilterCriteria.Filters.length).toBeGreaterThan(0);
  // It waits for the consumer's own role (the shared role it would name is gone).
  expect(mapping.DependsOn).toEqual([resources[consumerId]!.Properties.Role['Fn::GetAtt'][0]]);
  const queue = resources.StreamFailureQueue!;
  expect(queue.Type).toBe('AWS::SQS::Queue');
  expect(queue.Properties).toMatchObject({ MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true });
  // S3: exactly the declared object actions, per function and prefix.
  const { comment: _c, ...s3Declared } = s3Iam;
  expect(s3Used).toEqual(Object.fromEntries(Object.entries(s3Declared).map(([n, prefixes]) => [n, Object.fromEntries(Object.entries(prefixes).map(([p, a]) => [p, [...a].sort()]))])));

  // The sweeper runs every 15 minutes (a stalled cleanup job is restarted within that).
  const rules = ofType('AWS::Events::Rule');
  expect(rules.map(([, r]) => r.Properties.ScheduleExpression)).toEqual(['rate(15 minutes)']);
  const sweeperId = lambdas.find(([, fn]) => fn.Properties.FunctionName === 'aperture-prod-cleanupSweeper')![0];
  expect(rules[0]![1].Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [sweeperId, 'Arn'] });
  // A failed sweep is not retried by Lambda: the next one comes in 15 minutes anyway, and one
  // failure stays one data point of its Errors metric.
  const invokeConfigs = ofType('AWS::Lambda::EventInvokeConfig');
  expect(invokeConfigs.map(([, c]) => c.Properties.FunctionName)).toEqual([{ Ref: sweeperId }]);
  expect(invokeConfigs[0]![1].Properties.MaximumRetryAttempts).toBe(0);
});

describe('media storage (contract section 12)', () => {
  // serverless's own zip library, as resources/sharp-package.js uses it.
  const JSZip = require(require.resolve('jszip', { paths: [join(ROOT, 'node_modules/serverless')] })); // eslint-disable-line @typescript-eslint/no-require-imports
  const entries = async (fn: string): Promise<Record<string, { async(t: 'nodebuffer'): Promise<Buffer> }>> => (await JSZip.loadAsync(readFileSync(join(dir, 'out', `${fn}.zip`)))).files;

  it('gives sharp with its linux-arm64 binaries to the processing function, and sharp to no other function', async () => {
    const files = await entries('mediaProcess');
    const names = Object.keys(files);
    expect(names).toContain('node_modules/sharp/package.json');
    const addon = names.find((n) => /^node_modules\/@img\/sharp-linux-arm64\/lib\/sharp-linux-arm64(-[0-9.]+)?\.node$/.test(n));
    const libvips = names.find((n) => /^node_modules\/@img\/sharp-libvips-linux-arm64\/lib\/libvips-cpp\.so/.test(n));
    expect(addon).toBeDefined();
    expect(libvips).toBeDefined();
    // Both are ELF files for AArch64 (e_machine 0xB7), whatever machine packaged them.
    for (const n of [addon!, libvips!]) {
      const bytes = await files[n]!.async('nodebuffer');
      expect({ n, magic: bytes.subarray(0, 4).toString('latin1'), machine: bytes.readUInt16LE(18) }).toEqual({ n, magic: '\x7fELF', machine: 0xb7 });
    }
    expect(names.filter((n) => /x64|darwin|win32|musl/.test(n))).toEqual([]);
    // The bundle loads it from node_modules (external), it does not contain it.
    const bundle = (await files['functions/media/process.js']!.async('nodebuffer')).toString('utf8');
    expect(bundle).toMatch(/require\("sharp"\)/);

    for (const fn of functionNames().filter((n) => n !== 'mediaProcess')) {
      const others = Object.keys(await entries(fn)).filter((n) => /sharp|@img\/|libvips/.test(n));
      expect({ fn, others }).toEqual({ fn, others: [] });
    }
  });

  it('deploys a private, encrypted bucket with CORS for uploads, lifecycle rules and its upload event to processing, behind CloudFront with origin access control', () => {
    const bucket = resources.MediaBucket!;
    expect(bucket.Type).toBe('AWS::S3::Bucket');
    expect(bucket.DeletionPolicy).toBe('Retain');
    const p = bucket.Properties;
    expect(p.BucketName).toEqual({ 'Fn::Sub': 'aperture-media-prod-${AWS::AccountId}' }); // eslint-disable-line no-template-curly-in-string
    expect(p.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(p.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(p.CorsConfiguration.CorsRules).toEqual([expect.objectContaining({ AllowedMethods: ['PUT'], AllowedHeaders: ['Content-Type'] })]);
    const rules = p.LifecycleConfiguration.Rules;
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', Prefix: 'uploads/', ExpirationInDays: 1 }));
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', Prefix: 'media/', ExpirationInDays: 1, TagFilters: [{ Key: 'aperture-media', Value: 'unused' }] }));
    const processId = ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.FunctionName === 'aperture-prod-mediaProcess')![0];
    expect(p.NotificationConfiguration.LambdaConfigurations).toEqual([{
      Event: 's3:ObjectCreated:*', Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'uploads/' }] } }, Function: { 'Fn::GetAtt': [processId, 'Arn'] },
    }]);
    expect(resources.MediaProcessS3Permission!.Properties).toMatchObject({ Principal: 's3.amazonaws.com', FunctionName: { 'Fn::GetAtt': [processId, 'Arn'] } });

    // The CDN reads through origin access control; the bucket lets only it read, only processed images.
    const cdn = resources.MediaCdn!.Properties.DistributionConfig;
    expect(cdn.Origins[0].OriginAccessControlId).toEqual({ 'Fn::GetAtt': ['MediaCdnOriginAccessControl', 'Id'] });
    expect(cdn.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', AllowedMethods: ['GET', 'HEAD'] });
    expect(resources.MediaCdnOriginAccessControl!.Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' });
    const statements = resources.MediaBucketPolicy!.Properties.PolicyDocument.Statement;
    const allow = statements.filter((st: { Effect: string }) => st.Effect === 'Allow');
    expect(allow).toHaveLength(1);
    expect(allow[0]).toMatchObject({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' });
    expect(JSON.stringify(allow[0].Resource)).toContain('/media/*');

    // Every function knows the bucket and the CDN's URL.
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        MEDIA_BUCKET: { 'Fn::Sub': 'aperture-media-prod-${AWS::AccountId}' }, // eslint-disable-line no-template-curly-in-string
        MEDIA_PUBLIC_URL: { 'Fn::Sub': 'https://${MediaCdn.DomainName}' }, // eslint-disable-line no-template-curly-in-string
        S3_ENDPOINT: '',
      });
    }
  });
});
