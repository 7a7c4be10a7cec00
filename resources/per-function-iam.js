'use strict';
// Per-function IAM roles from resources/iam.json, so each function may use only the
// DynamoDB actions it declares, on the table and (for Query) its indexes, invoke only the
// functions its `invoke` entry names (lambda:InvokeFunction on each one's ARN), send what
// failed to its own on-failure queue, write X-Ray segments when tracing is on, read the
// stage's JWT key parameter if it serves HTTP routes (ssm:GetParameter on that parameter,
// kms:Decrypt through SSM for that parameter only), and write only to its own log group.
// Adding a function means adding one line to iam.json; packaging
// fails for a function without one, for a wildcard, or for an action that is not
// DynamoDB's. Runs after serverless compiled the functions, before the template is saved
// (the hook serverless-iam-roles-per-function uses), and replaces the shared role.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const TABLE = 'Table';
const ACTION = /^dynamodb:[A-Z][A-Za-z]+$/;
const INDEX_ACTIONS = new Set(['dynamodb:Query', 'dynamodb:Scan']);

const read = (serviceDir) => JSON.parse(readFileSync(join(serviceDir, 'resources', 'iam.json'), 'utf8'));

/** Reads and checks the declarations against the functions of the service. */
function declarations(serviceDir, functionNames) {
  const { functions } = read(serviceDir);
  const problems = [];
  for (const name of functionNames) {
    const actions = functions[name];
    if (!Array.isArray(actions)) problems.push(`function "${name}" has no entry in resources/iam.json`);
    else for (const a of actions) if (!ACTION.test(a)) problems.push(`function "${name}": "${a}" is not one DynamoDB action`);
  }
  for (const name of Object.keys(functions)) {
    if (!functionNames.includes(name)) problems.push(`resources/iam.json names "${name}", which is not a function`);
  }
  if (problems.length) throw new Error(`Per-function IAM: ${problems.join('; ')}`);
  return functions;
}

/**
 * The functions each function may invoke (iam.json `invoke`): names of functions of the
 * service, never a pattern, so the grant is one function's ARN.
 */
function invocations(serviceDir, functionNames) {
  const invoke = read(serviceDir).invoke ?? {};
  const problems = [];
  for (const [name, targets] of Object.entries(invoke)) {
    if (!functionNames.includes(name)) problems.push(`resources/iam.json lets "${name}" invoke, which is not a function`);
    if (!Array.isArray(targets) || !targets.length) problems.push(`function "${name}": "invoke" must list function names`);
    else for (const t of targets) if (!functionNames.includes(t)) problems.push(`function "${name}" may invoke "${t}", which is not a function`);
  }
  if (problems.length) throw new Error(`Per-function IAM: ${problems.join('; ')}`);
  return invoke;
}

/** lambda:InvokeFunction on exactly the named functions (by name: a GetAtt would make the worker's role depend on itself). */
function invokeStatements(targets, functionNameOf) {
  if (!targets?.length) return [];
  return [{
    Effect: 'Allow',
    Action: ['lambda:InvokeFunction'],
    Resource: [...new Set(targets)].sort().map((t) => ({
      'Fn::Sub': `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${functionNameOf(t)}`,
    })),
  }];
}

/**
 * What the event source mapping of a function's stream events needs from the function's role
 * (serverless would put it on the shared role this plugin replaces): reading the stream, and
 * sending what failed to the on-failure queue.
 */
function streamStatements(events) {
  const streams = (events ?? []).map((e) => e.stream).filter((s) => s && typeof s === 'object');
  if (!streams.length) return [];
  const statements = [{
    Effect: 'Allow',
    Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
    Resource: streams.map((s) => s.arn),
  }];
  const queues = streams.map((s) => s.destinations?.onFailure).filter((d) => d && d.type === 'sqs').map((d) => d.arn);
  if (queues.length) statements.push({ Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: queues });
  return statements;
}

/**
 * An asynchronous invocation's on-failure destination (`destinations.onFailure` of the
 * function, an SQS queue): Lambda sends the failed event with the function's own role.
 */
function destinationStatements(fn) {
  const onFailure = fn.destinations?.onFailure;
  if (!onFailure) return [];
  if (typeof onFailure !== 'object' || onFailure.type !== 'sqs') {
    throw new Error('Per-function IAM: an on-failure destination must be { type: sqs, arn } (docs/OPERATIONS.md, "Failed background work")');
  }
  return [{ Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: [onFailure.arn] }];
}

/**
 * X-Ray active tracing (provider.tracing.lambda or the function's `tracing`): the runtime
 * sends the invocation's segments with the function's role. X-Ray actions take no resource
 * ARN, hence "*".
 */
function tracingStatements(provider, fn) {
  if (!(fn.tracing ?? provider.tracing?.lambda)) return [];
  return [{ Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: ['*'] }];
}

function tableStatements(actions, indexNames) {
  if (!actions.length) return [];
  const tableArn = { 'Fn::GetAtt': [TABLE, 'Arn'] };
  const statements = [{ Effect: 'Allow', Action: [...actions].sort(), Resource: [tableArn] }];
  const onIndexes = actions.filter((a) => INDEX_ACTIONS.has(a)).sort();
  if (onIndexes.length && indexNames.length) {
    statements.push({
      Effect: 'Allow',
      Action: onIndexes,
      Resource: indexNames.map((ix) => ({ 'Fn::Join': ['', [tableArn, `/index/${ix}`]] })),
    });
  }
  return statements;
}

const S3_ACTION = /^s3:[A-Z][A-Za-z]+$/;
const S3_PREFIX = /^[a-z0-9-]+\/$/;

/**
 * The media bucket's object actions of each function (iam.json `s3`: function -> key prefix
 * -> actions): one object action each, on a prefix of the bucket, never a wildcard action.
 */
function s3Declarations(serviceDir, functionNames) {
  const { s3 = {} } = read(serviceDir);
  const problems = [];
  for (const [name, prefixes] of Object.entries(s3)) {
    if (name === 'comment') continue;
    if (!functionNames.includes(name)) problems.push(`resources/iam.json gives S3 actions to "${name}", which is not a function`);
    for (const [prefix, actions] of Object.entries(prefixes)) {
      if (!S3_PREFIX.test(prefix)) problems.push(`function "${name}": S3 prefix "${prefix}" must be one folder ending in /`);
      for (const a of actions) if (!S3_ACTION.test(a)) problems.push(`function "${name}": "${a}" is not one S3 action`);
    }
  }
  if (problems.length) throw new Error(`Per-function IAM: ${problems.join('; ')}`);
  return Object.fromEntries(Object.entries(s3).filter(([n]) => n !== 'comment'));
}

/** One statement per prefix, on the objects under it in the media bucket (MEDIA_BUCKET: a name, or CloudFormation that builds it). */
function s3Statements(prefixes, bucket) {
  if (!prefixes) return [];
  return Object.entries(prefixes).map(([prefix, actions]) => ({
    Effect: 'Allow',
    Action: [...actions].sort(),
    Resource: [{ 'Fn::Sub': [`arn:\${AWS::Partition}:s3:::\${Bucket}/${prefix}*`, { Bucket: bucket }] }],
  }));
}

/**
 * The SES actions of each function (iam.json `ses`: function -> actions), on the stage's
 * identity and configuration set (resources/mail.yml) only.
 */
function sesDeclarations(serviceDir, functionNames) {
  const { ses = {} } = read(serviceDir);
  const problems = [];
  for (const [name, actions] of Object.entries(ses)) {
    if (name === 'comment') continue;
    if (!functionNames.includes(name)) problems.push(`resources/iam.json gives SES actions to "${name}", which is not a function`);
    for (const a of actions) if (!/^ses:[A-Z][A-Za-z]+$/.test(a)) problems.push(`function "${name}": "${a}" is not one SES action`);
  }
  if (problems.length) throw new Error(`Per-function IAM: ${problems.join('; ')}`);
  return Object.fromEntries(Object.entries(ses).filter(([n]) => n !== 'comment'));
}

function sesStatements(actions) {
  if (!actions) return [];
  return [{
    Effect: 'Allow',
    Action: [...actions].sort(),
    Resource: [
      { 'Fn::Sub': 'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/${MailIdentity}' },
      { 'Fn::Sub': 'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:configuration-set/${MailConfigurationSet}' },
    ],
  }];
}

/**
 * The functions that read the JWT key set (lib/auth/keys.ts): every function with an HTTP API
 * route, since lib/http verifies the caller's token (and, on a failed public request, the
 * token of the trace record's actor), except those iam.json `jwtKeys.except` names (handlers
 * that do not use lib/http). Derived, so a new route cannot be left without its keys.
 */
function jwtKeyReaders(serviceDir, functions) {
  const { jwtKeys = {} } = read(serviceDir);
  const except = jwtKeys.except ?? [];
  // The WebSocket API's $connect checks its ?token= as lib/http does.
  const routed = (fn) => (fn.events ?? []).some((e) => e && (e.httpApi !== undefined || e.websocket?.route === '$connect'));
  const problems = [];
  for (const name of except) {
    if (!functions[name]) problems.push(`resources/iam.json jwtKeys.except names "${name}", which is not a function`);
    else if (!routed(functions[name])) problems.push(`resources/iam.json jwtKeys.except names "${name}", which has no HTTP route (only routes read the keys)`);
  }
  if (problems.length) throw new Error(`Per-function IAM: ${problems.join('; ')}`);
  return Object.keys(functions).filter((n) => routed(functions[n]) && !except.includes(n)).sort();
}

/**
 * The functions iam.json `manageConnections` names may send to and close connections of the
 * stage's own WebSocket API (execute-api:ManageConnections on its @connections, nothing else).
 */
function manageConnectionStatements(names, name, stage) {
  if (!names.includes(name)) return [];
  const arn = (method) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${WebsocketsApi}/${stage}/${method}/@connections/*` });
  return [{ Effect: 'Allow', Action: ['execute-api:ManageConnections'], Resource: [arn('POST'), arn('DELETE')] }];
}

/** Reading and decrypting exactly the key parameter (JWT_KEYS_PARAMETER: a name like /aperture/<stage>/jwt-keys). */
function jwtKeyStatements(parameterName) {
  if (typeof parameterName !== 'string' || !/^\/[A-Za-z0-9_.\-/]+$/.test(parameterName)) {
    throw new Error(`Per-function IAM: JWT_KEYS_PARAMETER must be a parameter name starting with "/", not ${JSON.stringify(parameterName)}`);
  }
  const parameterArn = { 'Fn::Sub': `arn:\${AWS::Partition}:ssm:\${AWS::Region}:\${AWS::AccountId}:parameter${parameterName}` };
  return [
    { Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: [parameterArn] },
    {
      // Whichever key encrypts the SecureString (aws/ssm by default), used only by SSM and
      // only for this parameter (SSM's encryption context names the parameter's ARN).
      Effect: 'Allow',
      Action: ['kms:Decrypt'],
      Resource: [{ 'Fn::Sub': 'arn:${AWS::Partition}:kms:${AWS::Region}:${AWS::AccountId}:key/*' }],
      Condition: {
        StringEquals: {
          'kms:ViaService': { 'Fn::Sub': 'ssm.${AWS::Region}.amazonaws.com' },
          'kms:EncryptionContext:PARAMETER_ARN': parameterArn,
        },
      },
    },
  ];
}

class PerFunctionIam {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'before:package:finalize': () => this.apply() };
  }

  apply() {
    const sls = this.serverless;
    const service = sls.service;
    const naming = sls.getProvider('aws').naming;
    const template = service.provider.compiledCloudFormationTemplate;
    const resources = template.Resources;
    const names = service.getAllFunctions();
    const declared = declarations(sls.serviceDir ?? sls.config.servicePath, names);
    const invoke = invocations(sls.serviceDir ?? sls.config.servicePath, names);
    const s3 = s3Declarations(sls.serviceDir ?? sls.config.servicePath, names);
    const ses = sesDeclarations(sls.serviceDir ?? sls.config.servicePath, names);
    const bucket = service.provider.environment?.MEDIA_BUCKET;
    // The local stage has no parameter (its keys are config/local.json's) and no roles to speak of.
    const keyParameter = service.provider.environment?.JWT_KEYS_PARAMETER;
    // The VAPID key pair's parameter (lib/live/vapid.ts): read by the functions iam.json `vapidKeys` names.
    const vapidParameter = service.provider.environment?.VAPID_KEYS_PARAMETER;
    const iamConfig = read(sls.serviceDir ?? sls.config.servicePath);
    const keyReaders = keyParameter ? jwtKeyReaders(sls.serviceDir ?? sls.config.servicePath, Object.fromEntries(names.map((n) => [n, service.getFunction(n)]))) : [];
    const functionNameOf = (n) => {
      const fn = resources[naming.getLambdaLogicalId(n)];
      if (!fn || typeof fn.Properties.FunctionName !== 'string') throw new Error(`Per-function IAM: no function name for "${n}"`);
      return fn.Properties.FunctionName;
    };
    const table = JSON.parse(readFileSync(join(sls.serviceDir ?? sls.config.servicePath, 'resources', 'table.json'), 'utf8'));
    const indexNames = (table.GlobalSecondaryIndexes ?? []).map((ix) => ix.IndexName);

    for (const name of names) {
      const lambdaId = naming.getLambdaLogicalId(name);
      const logGroupId = naming.getLogGroupLogicalId(name);
      const roleId = `${naming.getNormalizedFunctionName(name)}IamRole`;
      const lambda = resources[lambdaId];
      if (!lambda) continue;
      resources[roleId] = {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
          },
          Policies: [{
            PolicyName: `${name}-policy`,
            PolicyDocument: {
              Version: '2012-10-17',
              Statement: [
                {
                  Effect: 'Allow',
                  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
                  Resource: [{ 'Fn::GetAtt': [logGroupId, 'Arn'] }],
                },
                ...tableStatements(declared[name], indexNames),
                ...invokeStatements(invoke[name], functionNameOf),
                ...streamStatements(service.getFunction(name).events),
                ...destinationStatements(service.getFunction(name)),
                ...tracingStatements(service.provider, service.getFunction(name)),
                ...s3Statements(s3[name], bucket),
                ...sesStatements(ses[name]),
                ...(keyReaders.includes(name) ? jwtKeyStatements(keyParameter) : []),
                ...(vapidParameter && (iamConfig.vapidKeys ?? []).includes(name) ? jwtKeyStatements(vapidParameter) : []),
                ...manageConnectionStatements(iamConfig.manageConnections ?? [], name, sls.getProvider('aws').getStage()),
              ],
            },
          }],
        },
      };
      lambda.Properties.Role = { 'Fn::GetAtt': [roleId, 'Arn'] };
      lambda.DependsOn = [...new Set([...(lambda.DependsOn ?? []).filter((d) => d !== 'IamRoleLambdaExecution'), roleId])];
    }
    // Event source mappings wait for their function's own role, not the shared one.
    for (const resource of Object.values(resources)) {
      if (resource.Type !== 'AWS::Lambda::EventSourceMapping' || !resource.DependsOn) continue;
      const fnId = resource.Properties?.FunctionName?.['Fn::GetAtt']?.[0];
      const roleRef = fnId && resources[fnId]?.Properties?.Role?.['Fn::GetAtt']?.[0];
      const deps = [resource.DependsOn].flat().filter((d) => d !== 'IamRoleLambdaExecution');
      resource.DependsOn = roleRef ? [...new Set([...deps, roleRef])] : deps;
    }
    // Nothing uses the shared role any more.
    delete resources.IamRoleLambdaExecution;
  }
}

module.exports = PerFunctionIam;
module.exports.declarations = declarations;
module.exports.invocations = invocations;
module.exports.s3Declarations = s3Declarations;
module.exports.sesDeclarations = sesDeclarations;
module.exports.jwtKeyReaders = jwtKeyReaders;
