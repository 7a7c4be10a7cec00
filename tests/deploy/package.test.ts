// `serverless package --stage prod`, offline (no AWS credentials, no network), and the
// CloudFormation template it makes: one function per endpoint with its own least-privilege
// role (its DynamoDB actions; lambda:InvokeFunction on the cleanup worker for the six
// functions that start it: the two deletions, a moderator's removal, the worker, the sweeper, the stream consumer), the sweeper's schedule, the HTTP API routes, the table with its indexes, TTL, PITR and
// deletion protection, stage throttling, log retention, the JWT key set's SSM parameter (its
// name in the environment, never a secret; each routed function may read and decrypt it), and
// the change stream's consumer with its retries and on-failure queue. Then the operations
// (resources/operations.js, docs/OPERATIONS.md): every alarm wired to the stage's topic, the
// dashboard, X-Ray on every function, the /auth/* route throttles and the access log's
// fields, every asynchronous consumer's retries, on-failure queue and reserved concurrency,
// and no secret in any environment block. Packaged once for the whole file.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, functionNames, routes } from '../../scripts/lib/manifests.mjs';
import { REQUEST_MAX_MS } from '../../lib/account/cleanup';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string | string[]; DeletionPolicy?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
const iam = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).functions as Record<string, string[]>;
const table = JSON.parse(readFileSync(join(ROOT, 'resources/table.json'), 'utf8'));
const s3Iam = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).s3 as Record<string, Record<string, string[]>>;
const indexNames: string[] = table.GlobalSecondaryIndexes.map((ix: { IndexName: string }) => ix.IndexName);

/** The on-failure queue of every asynchronous consumer (docs/OPERATIONS.md, "Failed background work"). */
const ON_FAILURE_QUEUE: Record<string, string> = {
  streamConsumer: 'StreamFailureQueue', cleanupWorker: 'CleanupFailureQueue', cleanupSweeper: 'SweepFailureQueue', mediaProcess: 'MediaFailureQueue',
  mailSuppress: 'MailFailureQueue',
  pushRetry: 'PushFailureQueue',
};

let dir: string;
let resources: Record<string, Resource>;
let template: { Resources: Record<string, Resource>; Parameters?: Record<string, any>; Conditions?: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
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
  template = JSON.parse(readFileSync(join(dir, 'out', 'cloudformation-template-update-stack.json'), 'utf8'));
  resources = template.Resources;
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('packages the prod stage offline into a template with all of it', () => {
  // One Lambda function per manifest function.
  const lambdas = ofType('AWS::Lambda::Function');
  const names = functionNames();
  expect(lambdas.map(([, r]) => r.Properties.FunctionName).sort()).toEqual(names.map((n) => `aperture-prod-${n}`).sort());

  // The HTTP API routes are the manifests' routes; "*" is the $default route.
  const routeKeys = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId?.Ref === 'HttpApi').map(([, r]) => r.Properties.RouteKey).sort();
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
  const retryArn = { 'Fn::Sub': 'arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:aperture-prod-pushRetry' }; // eslint-disable-line no-template-curly-in-string
  const vapidReaders = new Set<string>();
  const invokers: string[] = [];
  const senders: string[] = [];
  const tracers: string[] = [];
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
    // The DynamoDB calls of 5% of requests, and every failed one, logged under the request's
    // trace id (lib/db/metrics.ts, docs/OPERATIONS.md "Tracing").
    expect(env.LOG_DB_CALLS).toBe('0.05');
    expect(env).not.toHaveProperty('JWT_SECRET');
    expect(env).not.toHaveProperty('JWT_KEYS');
    expect(JSON.stringify(env)).not.toMatch(/\{\{resolve:|aperture-local-development-secret/);
    expect(env.TABLE_NAME).toBe('aperture-prod');
    expect(env.DYNAMODB_ENDPOINT).toBe('');
    // Unset in the packaging shell: the local stage's issuer and audience (README, Configuration).
    expect(env).toMatchObject({ JWT_ISSUER: 'aperture', JWT_AUDIENCE: 'aperture-app', TOKEN_TTL_SECONDS: '900', SESSION_TTL_DAYS: '30', LOG_RETENTION_DAYS: '30', FANOUT_MAX_FOLLOWERS: '10000', UPLOADS_PER_HOUR: '60' });

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
        // Its own on-failure queue only (the stream mapping's, or its asynchronous invocations').
        expect(s.Action).toEqual(['sqs:SendMessage']);
        expect(s.Resource).toEqual([{ 'Fn::GetAtt': [ON_FAILURE_QUEUE[name], 'Arn'] }]);
        senders.push(name);
        continue;
      }
      if (s.Action.some((a) => a.startsWith('xray:'))) {
        // X-Ray takes no resource ARN.
        expect(s.Action).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
        expect(s.Resource).toEqual(['*']);
        tracers.push(name);
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
      // The Management API of the stage's own WebSocket API (its own test, below).
      if (s.Action.includes('execute-api:ManageConnections')) continue;
      // The VAPID key pair (Web Push): that one parameter, decrypted through SSM only.
      if (JSON.stringify(s).includes(':parameter/aperture/prod/vapid-keys')) {
        const vapidArn = { 'Fn::Sub': 'arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/aperture/prod/vapid-keys' }; // eslint-disable-line no-template-curly-in-string
        if (s.Action.includes('ssm:GetParameter')) expect(s).toEqual({ Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: [vapidArn] });
        else expect((s as unknown as { Condition: { StringEquals: Record<string, unknown> } }).Condition.StringEquals['kms:EncryptionContext:PARAMETER_ARN']).toEqual(vapidArn);
        vapidReaders.add(name);
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
        // The stream consumer also hands failed Web Push to pushRetry, which invokes itself for the next attempt.
        expect(s.Resource).toEqual({ streamConsumer: [workerArn, retryArn], pushRetry: [retryArn] }[name] ?? [workerArn]);
        invokers.push(name);
        continue;
      }
      // SES: the stream consumer's sends ("e-mail (contract section 16)" below).
      if (s.Action.some((a) => a.startsWith('ses:'))) continue;
      for (const a of s.Action) { expect(a).toMatch(/^dynamodb:[A-Za-z]+$/); dynamo.add(a); }
      for (const r of s.Resource) expect([tableArn, ...indexArns]).toContainEqual(r);
      if (s.Resource.some((r) => JSON.stringify(r).includes('/index/'))) expect(s.Action).toEqual(['dynamodb:Query']);
    }
    expect([...dynamo].sort()).toEqual([...(iam[name] ?? ['<no declaration>'])].sort());
  }
  expect(invokers.sort()).toEqual(['cleanupSweeper', 'cleanupWorker', 'commentsDelete', 'moderationResolve', 'postsDelete', 'pushRetry', 'streamConsumer']);
  expect([...vapidReaders].sort()).toEqual(['pushRetry', 'pushVapidKey', 'streamConsumer']);
  expect(streamReaders).toEqual(['streamConsumer']);
  expect(senders.sort()).toEqual(Object.keys(ON_FAILURE_QUEUE).sort());
  expect(tracers.sort()).toEqual([...names].sort());
  // Every function with a route reads the keys (lib/http verifies tokens), but the /docs page,
  // which never reads one; no background function does.
  // And the WebSocket API's $connect, which checks its ?token= as the routes do.
  expect(keyReaders.sort()).toEqual([...[...new Set(routes().map((r) => r.name))].filter((n) => n !== 'docsPage'), 'liveConnect'].sort());
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
  const sweeperConfig = ofType('AWS::Lambda::EventInvokeConfig').find(([, c]) => c.Properties.FunctionName.Ref === sweeperId)!;
  expect(sweeperConfig[1].Properties.MaximumRetryAttempts).toBe(0);
});

it('gives no HTTP function a timeout past REQUEST_MAX_MS, the margin every sweep of a deleted account waits for its late writes', () => {
  const byName = new Map(ofType('AWS::Lambda::Function').map(([, r]) => [r.Properties.FunctionName, r.Properties.Timeout]));
  const http = [...new Set(routes().map((r) => r.name))];
  expect(http.length).toBeGreaterThan(40);
  for (const name of http) {
    const timeout = byName.get(`aperture-prod-${name}`);
    expect({ name, within: typeof timeout === 'number' && timeout * 1000 <= REQUEST_MAX_MS }).toEqual({ name, within: true });
  }
});

describe('node flags: every function\'s runtime starts through resources/node-flags/node-flags', () => {
  const JSZip = require(require.resolve('jszip', { paths: [join(ROOT, 'node_modules/serverless')] })); // eslint-disable-line @typescript-eslint/no-require-imports
  const WRAPPER = 'resources/node-flags/node-flags';

  it('sets AWS_LAMBDA_EXEC_WRAPPER to the wrapper in every function\'s zip, executable and as written', async () => {
    const lambdas = ofType('AWS::Lambda::Function');
    expect(lambdas.length).toBe(functionNames().length);
    for (const [id, fn] of lambdas) {
      expect({ id, wrapper: fn.Properties.Environment?.Variables?.AWS_LAMBDA_EXEC_WRAPPER }).toEqual({ id, wrapper: `/var/task/${WRAPPER}` });
    }
    const written = readFileSync(join(ROOT, WRAPPER), 'utf8');
    for (const fn of functionNames()) {
      const entry = (await JSZip.loadAsync(readFileSync(join(dir, 'out', `${fn}.zip`)))).files[WRAPPER];
      // A missing or non-executable wrapper stops the runtime from starting: every invocation fails.
      expect({ fn, found: !!entry, mode: ((entry?.unixPermissions ?? 0) as number) & 0o777 }).toEqual({ fn, found: true, mode: 0o755 });
      expect((await entry.async('nodebuffer')).toString('utf8')).toBe(written);
    }
  });
});

describe('e-mail (contract section 16)', () => {
  const roleOf = (name: string) => {
    const fn = ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.FunctionName === `aperture-prod-${name}`)!;
    return resources[fn[1].Properties.Role['Fn::GetAtt'][0]]!;
  };
  const sesStatementsOf = (name: string) => roleOf(name).Properties.Policies[0].PolicyDocument.Statement
    .filter((st: { Action: string[] }) => st.Action.some((a) => a.startsWith('ses:')));

  it('deploys the SES identity of MAIL_FROM\'s domain, a configuration set whose bounces and complaints reach the suppression function through SNS, and its alarms', () => {
    expect(resources.MailIdentity!.Properties).toMatchObject({ EmailIdentity: 'aperture.example', ConfigurationSetAttributes: { ConfigurationSetName: { Ref: 'MailConfigurationSet' } } });
    expect(resources.MailConfigurationSet!.Properties.Name).toBe('aperture-prod');
    expect(resources.MailFeedbackDestination!.Properties.EventDestination).toMatchObject({
      Enabled: true, MatchingEventTypes: ['bounce', 'complaint'], SnsDestination: { TopicARN: { Ref: 'MailFeedbackTopic' } },
    });
    // Only SES of this account may publish to the topic; the suppression function is subscribed.
    const statement = resources.MailFeedbackTopicPolicy!.Properties.PolicyDocument.Statement[0];
    expect(statement).toMatchObject({ Effect: 'Allow', Principal: { Service: 'ses.amazonaws.com' }, Action: 'sns:Publish', Condition: { StringEquals: { 'AWS:SourceAccount': { Ref: 'AWS::AccountId' } } } });
    const subscriptions = ofType('AWS::SNS::Subscription').filter(([, r]) => JSON.stringify(r.Properties.TopicArn) === JSON.stringify({ Ref: 'MailFeedbackTopic' }));
    expect(subscriptions).toHaveLength(1);
    expect(JSON.stringify(subscriptions[0]![1].Properties.Endpoint)).toContain('MailSuppressLambdaFunction');
    // The functions send from MAIL_FROM through the configuration set, links from APP_URL.
    const env = ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.FunctionName === 'aperture-prod-streamConsumer')![1].Properties.Environment.Variables;
    expect(env).toMatchObject({ MAIL_FROM: 'Aperture <no-reply@aperture.example>', APP_URL: 'https://app.aperture.example', SES_CONFIGURATION_SET: 'aperture-prod', SES_ENDPOINT: '' });
    // Bounce and complaint rates alarm to the stage's topic.
    for (const [id, metric, threshold] of [['MailBounceRateAlarm', 'Reputation.BounceRate', 0.04], ['MailComplaintRateAlarm', 'Reputation.ComplaintRate', 0.0008]] as const) {
      expect(resources[id]!.Properties).toMatchObject({ Namespace: 'AWS/SES', MetricName: metric, Threshold: threshold, AlarmActions: [{ Ref: 'AlarmTopic' }] });
    }
  });

  it('lets the stream consumer alone send, with ses:SendEmail on the stage\'s identity and configuration set only; the suppression function only puts items', () => {
    expect(sesStatementsOf('streamConsumer')).toEqual([{
      Effect: 'Allow',
      Action: ['ses:SendEmail'],
      Resource: [
        { 'Fn::Sub': 'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/${MailIdentity}' }, // eslint-disable-line no-template-curly-in-string
        { 'Fn::Sub': 'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:configuration-set/${MailConfigurationSet}' }, // eslint-disable-line no-template-curly-in-string
      ],
    }]);
    for (const fn of functionNames().filter((n) => n !== 'streamConsumer')) expect({ fn, ses: sesStatementsOf(fn) }).toEqual({ fn, ses: [] });
    expect(iam.mailSuppress).toEqual(['dynamodb:PutItem']);
  });
});

describe('password hashing (contract section 3)', () => {
  // serverless's own zip library, as resources/argon2-package.js uses it.
  const JSZip = require(require.resolve('jszip', { paths: [join(ROOT, 'node_modules/serverless')] })); // eslint-disable-line @typescript-eslint/no-require-imports
  // The two-factor routes check the password (setup, disable), or import the two-factor module
  // that does (enable, the login's second step).
  const HASHING = ['authLogin', 'authLoginTwoFactor', 'authPassword', 'authRegister', 'authReset', 'authTwoFactorDisable', 'authTwoFactorEnable', 'authTwoFactorSetup', 'usersDelete', 'usersEmail'];

  it('gives @node-rs/argon2 with its linux-arm64 binary to exactly the functions whose bundle requires it: those that hash', async () => {
    const carrying: string[] = [];
    for (const fn of functionNames()) {
      const files = (await JSZip.loadAsync(readFileSync(join(dir, 'out', `${fn}.zip`)))).files as Record<string, { dir: boolean; async(t: 'nodebuffer'): Promise<Buffer> }>;
      const names = Object.keys(files);
      let requires = false;
      for (const n of names.filter((x) => /\.js$/.test(x) && !x.startsWith('node_modules/'))) {
        if (/require\("@node-rs\/argon2"\)/.test((await files[n]!.async('nodebuffer')).toString('utf8'))) requires = true;
      }
      const carries = names.includes('node_modules/@node-rs/argon2/package.json');
      // A bundle that requires it and a zip without it would fail at every cold start.
      expect({ fn, requires, carries }).toEqual({ fn, requires, carries: requires });
      if (!carries) continue;
      carrying.push(fn);
      const addon = names.find((n) => /^node_modules\/@node-rs\/argon2-linux-arm64-gnu\/argon2\.linux-arm64-gnu\.node$/.test(n));
      expect({ fn, addon }).toEqual({ fn, addon: expect.any(String) });
      // An ELF file for AArch64 (e_machine 0xB7), whatever machine packaged it.
      const bytes = await files[addon!]!.async('nodebuffer');
      expect({ magic: bytes.subarray(0, 4).toString('latin1'), machine: bytes.readUInt16LE(18) }).toEqual({ magic: '\x7fELF', machine: 0xb7 });
      expect(names.filter((n) => /\.node$/.test(n) && n !== addon)).toEqual([]);
    }
    expect(carrying.sort()).toEqual(HASHING);
  });
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

    // libvips's buffers of over 128 KB are mapped, not taken from glibc's heap, so the memory of
    // a decode goes back to the system when it ends (lib/media/render.ts): measured on a
    // 49-megapixel PNG of 153 KB, the process kept 80 MB after processing without it, none with it.
    const processFn = ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.FunctionName === 'aperture-prod-mediaProcess')![1];
    expect(processFn.Properties.Environment.Variables.MALLOC_MMAP_THRESHOLD_).toBe('131072');

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

describe('operations: alarms, tracing, failure destinations, throttles (docs/OPERATIONS.md)', () => {
  type Alarm = Resource & { Properties: { AlarmName: string; AlarmActions: unknown[]; OKActions: unknown[]; Metrics?: { Id: string; Expression?: string; ReturnData?: boolean; MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Stat: string } }[] } & Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const alarms = () => ofType('AWS::CloudWatch::Alarm') as [string, Alarm][];
  const lambdaIdOf = (name: string) => ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.FunctionName === `aperture-prod-${name}`)![0];
  /** The metrics an alarm watches: [namespace, metric, dimension value] of each (a single-metric alarm or each MetricStat). */
  const watched = (a: Alarm) => (a.Properties.Metrics
    ? a.Properties.Metrics.filter((m) => m.MetricStat).map((m) => [m.MetricStat!.Metric.Namespace, m.MetricStat!.Metric.MetricName, m.MetricStat!.Metric.Dimensions[0]!.Value])
    // An account-wide metric (SES's reputation) has no dimension.
    : [[a.Properties.Namespace, a.Properties.MetricName, a.Properties.Dimensions?.[0]?.Value]]);
  const watching = (ns: string, metric: string, dim?: unknown) => alarms().filter(([, a]) => watched(a).some(([n, m, d]) => n === ns && m === metric && (dim === undefined || JSON.stringify(d) === JSON.stringify(dim))));
  const ASYNC = Object.keys(ON_FAILURE_QUEUE);

  it('sends every alarm, on ALARM and on OK, to the stage\'s one topic; the e-mail subscription exists only with the deploy-time parameter', () => {
    // The alarms' topic, and the one SES's bounces and complaints go through ("e-mail (contract section 16)").
    expect(ofType('AWS::SNS::Topic').map(([id]) => id).sort()).toEqual(['AlarmTopic', 'MailFeedbackTopic']);
    expect(resources.AlarmTopic!.Properties.TopicName).toBe('aperture-prod-alarms');
    expect(alarms().length).toBeGreaterThan(0);
    for (const [, a] of alarms()) {
      expect(a.Properties.AlarmName).toMatch(/^aperture-prod-/);
      expect(a.Properties.AlarmActions).toEqual([{ Ref: 'AlarmTopic' }]);
      expect(a.Properties.OKActions).toEqual([{ Ref: 'AlarmTopic' }]);
      expect(a.Properties.AlarmDescription).toMatch(/docs\/OPERATIONS\.md/);
    }
    const subs = ofType('AWS::SNS::Subscription').filter(([, r]) => JSON.stringify(r.Properties.TopicArn) === JSON.stringify({ Ref: 'AlarmTopic' }));
    expect(subs).toHaveLength(1);
    const [, sub] = subs[0]! as [string, Resource & { Condition?: string }];
    expect(sub.Condition).toBe('HasAlarmEmail');
    expect(sub.Properties).toEqual({ TopicArn: { Ref: 'AlarmTopic' }, Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' } });
    // Packaged without --param="alarmEmail=...": empty, so no subscription is made.
    expect(template.Parameters!.AlarmEmail).toMatchObject({ Type: 'String', Default: '' });
    expect(template.Conditions!.HasAlarmEmail).toEqual({ 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AlarmEmail' }, ''] }] });
  });

  it('alarms on the API\'s 5xx rate and p99 latency', () => {
    const rate = watching('AWS/ApiGateway', '5xx', { Ref: 'HttpApi' });
    expect(rate).toHaveLength(1);
    expect(watched(rate[0]![1])).toEqual([['AWS/ApiGateway', '5xx', { Ref: 'HttpApi' }], ['AWS/ApiGateway', 'Count', { Ref: 'HttpApi' }]]);
    expect(rate[0]![1].Properties.Metrics!.find((m) => m.ReturnData)!.Expression).toMatch(/100 \* errors \/ requests/);
    const latency = watching('AWS/ApiGateway', 'Latency', { Ref: 'HttpApi' });
    expect(latency).toHaveLength(1);
    expect(latency[0]![1].Properties).toMatchObject({ ExtendedStatistic: 'p99', Threshold: 3000 });
  });

  it('alarms on the Errors and the Throttles of every function; an asynchronous consumer has its own, and one on lost destination deliveries', () => {
    for (const metric of ['Errors', 'Throttles']) {
      for (const name of functionNames()) {
        const id = lambdaIdOf(name);
        const found = watching('AWS/Lambda', metric, { Ref: id });
        expect({ name, metric, alarms: found.length }).toEqual({ name, metric, alarms: 1 });
        const a = found[0]![1];
        expect(a.Properties).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0 });
        // A group alarm holds each function to the threshold on its own (MAX), at most 10 metrics (CloudWatch's limit).
        if (a.Properties.Metrics) {
          expect(a.Properties.Metrics.filter((m) => m.MetricStat).length).toBeLessThanOrEqual(10);
          expect(a.Properties.Metrics.find((m) => m.ReturnData)!.Expression).toMatch(/^MAX\(\[/);
          expect(a.Properties.AlarmDescription).toContain(name);
          expect(ASYNC).not.toContain(name);
        }
      }
    }
    for (const name of ASYNC) {
      expect(watching('AWS/Lambda', 'Errors', { Ref: lambdaIdOf(name) })[0]![1].Properties.Metrics).toBeUndefined();
      expect(watching('AWS/Lambda', 'DestinationDeliveryFailures', { Ref: lambdaIdOf(name) })).toHaveLength(1);
    }
  });

  it('alarms on the table\'s throttled requests and system errors, over every operation', () => {
    for (const metric of ['ThrottledRequests', 'SystemErrors']) {
      const found = alarms().filter(([, a]) => a.Properties.Metrics?.some((m) => m.Expression?.includes(`SUM(${metric})`)));
      expect(found).toHaveLength(1);
      expect(found[0]![1].Properties.Metrics![0]!.Expression).toBe(`SELECT SUM(${metric}) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = 'aperture-prod'`);
    }
  });

  it('alarms on the iterator age of every stream consumer and on the depth of every queue', () => {
    for (const [, m] of ofType('AWS::Lambda::EventSourceMapping')) {
      const fnId = m.Properties.FunctionName['Fn::GetAtt'][0];
      const found = watching('AWS/Lambda', 'IteratorAge', { Ref: fnId });
      expect(found).toHaveLength(1);
      expect(found[0]![1].Properties).toMatchObject({ Statistic: 'Maximum', Threshold: 60_000 });
    }
    const queues = ofType('AWS::SQS::Queue');
    expect(queues.map(([id]) => id).sort()).toEqual(Object.values(ON_FAILURE_QUEUE).sort());
    for (const [id, q] of queues) {
      expect(q.Properties).toMatchObject({ MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true });
      expect(watching('AWS/SQS', 'ApproximateNumberOfMessagesVisible', { 'Fn::GetAtt': [id, 'QueueName'] })).toHaveLength(1);
    }
  });

  it('has a dashboard of the same: every alarm, the API, every function, the table, the stream and the queues', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const [body, vars] = dashboards[0]![1].Properties.DashboardBody['Fn::Sub'] as [string, Record<string, unknown>];
    const widgets = (JSON.parse(body) as { widgets: { type: string; properties: { title?: string; alarms?: string[] } }[] }).widgets;
    expect(widgets.find((w) => w.type === 'alarm')!.properties.alarms!.length).toBe(alarms().length);
    const values = Object.values(vars).map((x) => JSON.stringify(x));
    for (const [id] of alarms()) expect(values).toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }));
    for (const name of functionNames()) expect(values).toContain(JSON.stringify({ Ref: lambdaIdOf(name) }));
    for (const id of Object.values(ON_FAILURE_QUEUE)) expect(values).toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'QueueName'] }));
    expect(body).toContain('ThrottledRequests');
    expect(body).toContain('IteratorAge');
  });

  it('traces every function actively (X-Ray)', () => {
    for (const [, fn] of ofType('AWS::Lambda::Function')) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it('gives every asynchronous consumer bounded retries, an on-failure SQS queue and reserved concurrency', () => {
    const configs = ofType('AWS::Lambda::EventInvokeConfig');
    for (const name of ASYNC) {
      const id = lambdaIdOf(name);
      expect(resources[id]!.Properties.ReservedConcurrentExecutions).toBeGreaterThan(0);
      if (name === 'streamConsumer') continue; // its mapping's retries and queue are checked above
      const config = configs.find(([, c]) => c.Properties.FunctionName.Ref === id);
      expect(config).toBeDefined();
      expect(config![1].Properties).toMatchObject({ DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [ON_FAILURE_QUEUE[name], 'Arn'] } } } });
      expect(config![1].Properties.MaximumRetryAttempts).toBeLessThanOrEqual(2);
      expect(config![1].Properties.MaximumEventAgeInSeconds).toBeLessThanOrEqual(21600);
    }
    // Nothing else is invoked asynchronously by us (an S3 event, a schedule, the cleanup trigger).
    expect(configs.map(([, c]) => c.Properties.FunctionName.Ref).sort()).toEqual(ASYNC.filter((n) => n !== 'streamConsumer').map(lambdaIdOf).sort());
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => ['s3.amazonaws.com', 'events.amazonaws.com'].includes(p.Properties.Principal));
    for (const [, p] of permissions) {
      const target = p.Properties.FunctionName['Fn::GetAtt']?.[0] ?? p.Properties.FunctionName.Ref;
      expect(ASYNC.map(lambdaIdOf)).toContain(target);
    }
  });

  it('throttles every /auth/* route on its own, and logs each request with its route, status, latency, integration error and request id', () => {
    const stage = resources.HttpApiStage!;
    const authRoutes = routes().filter((r) => r.path.startsWith('/auth/')).map((r) => r.key);
    expect(Object.keys(stage.Properties.RouteSettings).sort()).toEqual([...authRoutes].sort());
    for (const key of authRoutes) {
      const setting = stage.Properties.RouteSettings[key];
      expect(setting.ThrottlingRateLimit).toBeGreaterThan(0);
      expect(setting.ThrottlingRateLimit).toBeLessThan(stage.Properties.DefaultRouteSettings.ThrottlingRateLimit);
      expect(Number.isInteger(setting.ThrottlingBurstLimit)).toBe(true);
    }
    // The routes exist before the stage names them.
    const routeIds = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => authRoutes.includes(r.Properties.RouteKey)).map(([id]) => id);
    expect(stage.DependsOn).toEqual(expect.arrayContaining(routeIds));
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId', routeKey: '$context.routeKey', status: '$context.status', responseLatency: '$context.responseLatency',
      integrationErrorMessage: '$context.integrationErrorMessage', integrationError: '$context.integration.error', integrationRequestId: '$context.integration.requestId',
    });
  });

  it('throttles the WebSocket API, and lets only the stream consumer manage its connections', () => {
    const stage = resources.WebsocketsDeploymentStage!;
    expect(stage.Properties.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(Number.isInteger(stage.Properties.DefaultRouteSettings.ThrottlingBurstLimit)).toBe(true);
    const routeKeys = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId?.Ref === 'WebsocketsApi').map(([, r]) => r.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(['$connect', '$default', '$disconnect']);
    const managing = ofType('AWS::IAM::Role').filter(([, r]) => JSON.stringify(r.Properties).includes('execute-api:ManageConnections'));
    expect(managing.map(([id]) => id)).toEqual(['StreamConsumerIamRole']);
    const statement = managing[0]![1].Properties.Policies[0].PolicyDocument.Statement.find((x: { Action: string[] }) => x.Action.includes('execute-api:ManageConnections'));
    expect(statement.Action).toEqual(['execute-api:ManageConnections']);
    for (const r of statement.Resource) expect(r['Fn::Sub']).toMatch(/^arn:\$\{AWS::Partition\}:execute-api:\$\{AWS::Region\}:\$\{AWS::AccountId\}:\$\{WebsocketsApi\}\/prod\/(POST|DELETE)\/@connections\/\*$/);
  });

  it('puts nothing secret in any function\'s environment', () => {
    const SECRET_NAME = /SECRET|PASSWORD|PASSWD|PRIVATE|TOKEN$|CREDENTIAL|API_?KEY|ACCESS_KEY/i;
    // Settings whose names look secret and are not: a lifetime in seconds.
    const NOT_SECRETS = ['TOKEN_TTL_SECONDS'];
    const offenders: string[] = [];
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      for (const [key, value] of Object.entries(fn.Properties.Environment?.Variables ?? {})) {
        const text = JSON.stringify(value);
        if ((SECRET_NAME.test(key) && !NOT_SECRETS.includes(key)) || /jwt-secret|\{\{resolve:(ssm|ssm-secure|secretsmanager):/i.test(text)) {
          offenders.push(`${fn.Properties.FunctionName}: ${key}`);
        }
      }
    }
    expect([...new Set(offenders)]).toEqual([]);
  });
});
