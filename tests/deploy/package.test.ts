// `serverless package --stage prod`, offline (no AWS credentials, no network), and the
// CloudFormation template it makes: one function per endpoint with its own least-privilege
// role (its DynamoDB actions; lambda:InvokeFunction on the cleanup worker for the four
// functions that start it), the sweeper's schedule, the HTTP API routes, the table with its indexes, TTL, PITR and
// deletion protection, stage throttling, log retention, the JWT secret from SSM.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, functionNames, routes } from '../../scripts/lib/manifests.mjs';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string | string[]; DeletionPolicy?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
const iam = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).functions as Record<string, string[]>;
const table = JSON.parse(readFileSync(join(ROOT, 'resources/table.json'), 'utf8'));
const indexNames: string[] = table.GlobalSecondaryIndexes.map((ix: { IndexName: string }) => ix.IndexName);

let dir: string;
let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aperture-package-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: dir, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off', ESBUILD_WORK_FOLDER: '.esbuild-package',
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
  for (const [id, fn] of lambdas) {
    const name = fn.Properties.FunctionName.replace('aperture-prod-', '') as string;
    const env = fn.Properties.Environment.Variables;
    expect(env.JWT_SECRET).toBe('{{resolve:ssm:/aperture/prod/jwt-secret}}');
    expect(env.TABLE_NAME).toBe('aperture-prod');
    expect(env.DYNAMODB_ENDPOINT).toBe('');
    // Unset in the packaging shell: the local stage's issuer and audience (README, Configuration).
    expect(env).toMatchObject({ JWT_ISSUER: 'aperture', JWT_AUDIENCE: 'aperture-app', TOKEN_TTL_SECONDS: '900', SESSION_TTL_DAYS: '30', LOG_RETENTION_DAYS: '30' });

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
  expect(invokers.sort()).toEqual(['cleanupSweeper', 'cleanupWorker', 'commentsDelete', 'postsDelete']);

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
