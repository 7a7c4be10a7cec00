'use strict';
// What an operator of a deployed stage needs from the template (docs/OPERATIONS.md, "Alarms"):
// one SNS topic per stage that every alarm notifies (an e-mail subscription when the stage is
// deployed with --param="alarmEmail=..."), the alarms, a CloudWatch dashboard of the same
// metrics, and the per-route throttles of the /auth/* routes. Generated from the compiled
// template (the functions, the queues, the stream mapping), so a new function or queue is
// covered without a line here. Runs before the template is saved, like per-function-iam.js;
// the local stage (serverless-offline) gets nothing of it.
//
// Why Lambda alarms are grouped: CloudFormation allows 500 resources per stack and the stage
// has about 400 (7 per route: function, version, role, log group, permission, integration,
// route). Two alarms per function would not fit, so the functions that serve routes are
// watched by alarms of up to 10 functions each (the hard limit of metrics in one metric math
// alarm): MAX() over their series, so each function is held to the threshold on its own, and
// the alarm's description names them. Each asynchronous consumer has alarms of its own.

const ALARM_TOPIC = 'AlarmTopic';
const EMAIL_PARAMETER = 'AlarmEmail';
const EMAIL_CONDITION = 'HasAlarmEmail';
const GROUP_SIZE = 10;
const API = 'HttpApi';
const STAGE = 'HttpApiStage';
const TABLE = 'Table';

const topicRef = { Ref: ALARM_TOPIC };

/** An alarm resource, notifying the topic on ALARM and on OK. */
function alarm(name, description, props) {
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: name,
      AlarmDescription: description,
      ActionsEnabled: true,
      AlarmActions: [topicRef],
      OKActions: [topicRef],
      TreatMissingData: 'notBreaching',
      ...props,
    },
  };
}

const metricStat = (id, namespace, metric, dimensions, stat, period = 300) => ({
  Id: id,
  ReturnData: false,
  MetricStat: { Metric: { Namespace: namespace, MetricName: metric, Dimensions: dimensions }, Period: period, Stat: stat },
});

/** Functions that do work no client waits for: invoked asynchronously (a destination) or by a stream. */
function asyncConsumers(service) {
  return service.getAllFunctions().filter((name) => {
    const fn = service.getFunction(name);
    return Boolean(fn.destinations?.onFailure) || (fn.events ?? []).some((e) => e.stream);
  });
}

/** RouteSettings of the stage for the declared route keys; every /auth/* route must have one. */
function routeThrottles(resources, declared) {
  const routes = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Route');
  const byKey = new Map(routes.map(([id, r]) => [r.Properties.RouteKey, id]));
  const problems = [];
  for (const key of Object.keys(declared)) if (!byKey.has(key)) problems.push(`"${key}" is not a route of the service`);
  for (const key of byKey.keys()) if (/^[A-Z]+ \/auth\//.test(key) && !declared[key]) problems.push(`route "${key}" has no throttle in custom.operations.routeThrottles`);
  if (problems.length) throw new Error(`Operations: ${problems.join('; ')}`);
  const settings = {};
  for (const [key, { rate, burst }] of Object.entries(declared)) {
    const r = Number(rate);
    const b = Number(burst);
    if (!(r > 0) || !Number.isInteger(b) || b <= 0) throw new Error(`Operations: route "${key}" needs a positive rate and an integer burst`);
    settings[key] = { ThrottlingRateLimit: r, ThrottlingBurstLimit: b };
  }
  // The stage names the routes by key: CloudFormation must create them first.
  return { settings, dependsOn: Object.keys(declared).map((k) => byKey.get(k)) };
}

function build({ service: svc, stage, naming, resources, functionNames, asyncNames, alarmEmail }) {
  const prefix = `${svc}-${stage}`;
  const out = {};
  const fnRef = (name) => ({ Ref: naming.getLambdaLogicalId(name) });
  const fnDims = (name) => [{ Name: 'FunctionName', Value: fnRef(name) }];
  const id = (name) => naming.getNormalizedFunctionName(name);

  out[ALARM_TOPIC] = { Type: 'AWS::SNS::Topic', Properties: { TopicName: `${prefix}-alarms`, DisplayName: `Aperture ${stage} alarms` } };
  out.AlarmEmailSubscription = {
    Type: 'AWS::SNS::Subscription',
    Condition: EMAIL_CONDITION,
    Properties: { TopicArn: topicRef, Protocol: 'email', Endpoint: { Ref: EMAIL_PARAMETER } },
  };

  // The API: 5xx rate (once there are 20 requests in 5 minutes) and p99 latency.
  out.ApiServerErrorRateAlarm = alarm(`${prefix}-api-5xx-rate`,
    'More than 1% of the HTTP API\'s requests answered 5xx in 2 of 3 periods of 5 minutes (docs/OPERATIONS.md, "api-5xx-rate").', {
      ComparisonOperator: 'GreaterThanThreshold', Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2,
      Metrics: [
        metricStat('errors', 'AWS/ApiGateway', '5xx', [{ Name: 'ApiId', Value: { Ref: API } }], 'Sum'),
        metricStat('requests', 'AWS/ApiGateway', 'Count', [{ Name: 'ApiId', Value: { Ref: API } }], 'Sum'),
        { Id: 'rate', Label: '5xx % of requests', ReturnData: true, Expression: 'IF(requests >= 20, 100 * errors / requests, 0)' },
      ],
    });
  out.ApiLatencyAlarm = alarm(`${prefix}-api-latency-p99`,
    'The HTTP API\'s p99 latency was over 3 s in 2 of 3 periods of 5 minutes (docs/OPERATIONS.md, "api-latency-p99").', {
      Namespace: 'AWS/ApiGateway', MetricName: 'Latency', Dimensions: [{ Name: 'ApiId', Value: { Ref: API } }],
      ExtendedStatistic: 'p99', Period: 300, EvaluationPeriods: 3, DatapointsToAlarm: 2, Threshold: 3000, ComparisonOperator: 'GreaterThanThreshold',
    });

  // Lambda: Errors and Throttles of every function; DestinationDeliveryFailures (an event lost
  // on the way to its on-failure queue) of every asynchronous consumer.
  const routeNames = functionNames.filter((n) => !asyncNames.includes(n));
  const groups = [];
  for (let i = 0; i < routeNames.length; i += GROUP_SIZE) groups.push(routeNames.slice(i, i + GROUP_SIZE));
  for (const [metric, word] of [['Errors', 'errors'], ['Throttles', 'throttles']]) {
    groups.forEach((names, g) => {
      out[`RouteFunctions${g + 1}${metric}Alarm`] = alarm(`${prefix}-lambda-${word}-routes-${g + 1}`,
        `${metric} > 0 in 5 minutes of one of: ${names.join(', ')} (docs/OPERATIONS.md, "lambda-${word}").`, {
          ComparisonOperator: 'GreaterThanThreshold', Threshold: 0, EvaluationPeriods: 1,
          Metrics: [
            ...names.map((n, k) => metricStat(`f${k}`, 'AWS/Lambda', metric, fnDims(n), 'Sum')),
            { Id: 'worst', Label: `${metric}, the highest of the group`, ReturnData: true, Expression: `MAX([${names.map((_, k) => `f${k}`).join(', ')}])` },
          ],
        });
    });
    for (const n of asyncNames) {
      out[`${id(n)}${metric}Alarm`] = alarm(`${prefix}-lambda-${word}-${n}`, `${metric} > 0 in 5 minutes of ${n} (docs/OPERATIONS.md, "lambda-${word}").`, {
        Namespace: 'AWS/Lambda', MetricName: metric, Dimensions: fnDims(n), Statistic: 'Sum', Period: 300,
        EvaluationPeriods: 1, Threshold: 0, ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  }
  for (const n of asyncNames) {
    out[`${id(n)}DestinationDeliveryFailuresAlarm`] = alarm(`${prefix}-lambda-destination-failures-${n}`,
      `${n} could not send a failed event to its on-failure queue: the event is lost (docs/OPERATIONS.md, "lambda-destination-failures").`, {
        Namespace: 'AWS/Lambda', MetricName: 'DestinationDeliveryFailures', Dimensions: fnDims(n), Statistic: 'Sum', Period: 300,
        EvaluationPeriods: 1, Threshold: 0, ComparisonOperator: 'GreaterThanThreshold',
      });
  }

  // Stream consumers: how far behind the stream they are.
  const mappings = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
  const streamConsumers = functionNames.filter((n) => mappings.some((m) => m.Properties.FunctionName?.['Fn::GetAtt']?.[0] === naming.getLambdaLogicalId(n)));
  for (const n of streamConsumers) {
    out[`${id(n)}IteratorAgeAlarm`] = alarm(`${prefix}-stream-iterator-age-${n}`,
      `${n} is more than a minute behind the table's stream for 10 minutes (docs/OPERATIONS.md, "stream-iterator-age").`, {
        Namespace: 'AWS/Lambda', MetricName: 'IteratorAge', Dimensions: fnDims(n), Statistic: 'Maximum', Period: 300,
        EvaluationPeriods: 2, Threshold: 60_000, ComparisonOperator: 'GreaterThanThreshold',
      });
  }

  // Every queue is an on-failure destination: anything in it is work that did not happen.
  const queues = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SQS::Queue').map(([qid]) => qid).sort();
  for (const q of queues) {
    out[`${q}DepthAlarm`] = alarm(`${prefix}-dlq-depth-${resources[q].Properties.QueueName.replace(`${prefix}-`, '')}`,
      `Messages in ${resources[q].Properties.QueueName}: events that failed after their retries (docs/OPERATIONS.md, "dlq-depth").`, {
        Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [q, 'QueueName'] } }],
        Statistic: 'Maximum', Period: 300, EvaluationPeriods: 1, Threshold: 0, ComparisonOperator: 'GreaterThanThreshold',
      });
  }

  // DynamoDB: ThrottledRequests and SystemErrors carry an Operation dimension; a Metrics
  // Insights query sums every operation of the table.
  const tableName = resources[TABLE].Properties.TableName;
  for (const [metric, word, description] of [
    ['ThrottledRequests', 'throttled', 'Requests to the table were throttled'],
    ['SystemErrors', 'system-errors', 'DynamoDB answered requests to the table with a 500'],
  ]) {
    out[`Table${metric}Alarm`] = alarm(`${prefix}-dynamodb-${word}`, `${description} (docs/OPERATIONS.md, "dynamodb-${word}").`, {
      ComparisonOperator: 'GreaterThanThreshold', Threshold: 0, EvaluationPeriods: 1,
      Metrics: [{
        Id: 'q', ReturnData: true, Period: 300, Label: `${metric} of ${tableName}`,
        Expression: `SELECT SUM(${metric}) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${tableName}'`,
      }],
    });
  }

  // SES's account reputation (resources/mail.yml: the configuration set enables its metrics).
  // SES reviews an account at a 5% bounce rate or a 0.1% complaint rate: told before.
  if (resources.MailConfigurationSet) {
    for (const [metric, word, threshold, description] of [
      ['Reputation.BounceRate', 'bounce-rate', 0.04, 'The SES account\'s bounce rate is over 4%'],
      ['Reputation.ComplaintRate', 'complaint-rate', 0.0008, 'The SES account\'s complaint rate is over 0.08%'],
    ]) {
      out[`Mail${word === 'bounce-rate' ? 'BounceRate' : 'ComplaintRate'}Alarm`] = alarm(`${prefix}-ses-${word}`, `${description} (docs/OPERATIONS.md, "ses-${word}").`, {
        Namespace: 'AWS/SES', MetricName: metric, Statistic: 'Maximum', Period: 3600,
        EvaluationPeriods: 1, Threshold: threshold, ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  }

  out.Dashboard = dashboard({ prefix, stage, naming, functionNames, streamConsumers, queues, tableName, alarmIds: Object.keys(out).filter((k) => k.endsWith('Alarm')) });
  return {
    resources: out,
    parameters: {
      [EMAIL_PARAMETER]: { Type: 'String', Default: alarmEmail, Description: 'E-mail address subscribed to the stage\'s alarm topic; empty: none.' },
    },
    conditions: { [EMAIL_CONDITION]: { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: EMAIL_PARAMETER }, ''] }] } },
  };
}

/** The dashboard: the alarms' states, then the metrics they watch (and their neighbours). */
function dashboard({ prefix, naming, functionNames, streamConsumers, queues, tableName, alarmIds }) {
  const vars = {};
  const v = (name, value) => { vars[name] = value; return `\${${name}}`; };
  const api = v('ApiId', { Ref: API });
  const fn = (n) => v(`Fn${naming.getNormalizedFunctionName(n)}`, { Ref: naming.getLambdaLogicalId(n) });
  const widget = (title, metrics, extra = {}) => ({
    type: 'metric', width: 12, height: 6,
    properties: { title, region: '${AWS::Region}', view: 'timeSeries', stacked: false, period: 300, metrics, ...extra },
  });
  const perFunction = (metric, stat) => functionNames.map((n) => ['AWS/Lambda', metric, 'FunctionName', fn(n), { stat, label: n }]);
  const widgets = [
    { type: 'alarm', width: 24, height: 6, properties: { title: 'Alarms', alarms: alarmIds.map((a) => v(`Arn${a}`, { 'Fn::GetAtt': [a, 'Arn'] })) } },
    widget('API requests, 4xx, 5xx', [
      ['AWS/ApiGateway', 'Count', 'ApiId', api, { stat: 'Sum' }],
      ['AWS/ApiGateway', '4xx', 'ApiId', api, { stat: 'Sum' }],
      ['AWS/ApiGateway', '5xx', 'ApiId', api, { stat: 'Sum' }],
    ]),
    widget('API latency (ms)', [
      ['AWS/ApiGateway', 'Latency', 'ApiId', api, { stat: 'p50' }],
      ['AWS/ApiGateway', 'Latency', 'ApiId', api, { stat: 'p99' }],
      ['AWS/ApiGateway', 'IntegrationLatency', 'ApiId', api, { stat: 'p99' }],
    ]),
    widget('Lambda errors per function', perFunction('Errors', 'Sum')),
    widget('Lambda throttles per function', perFunction('Throttles', 'Sum')),
    widget('Lambda duration p99 per function (ms)', perFunction('Duration', 'p99')),
    widget('Lambda concurrency per function', perFunction('ConcurrentExecutions', 'Maximum')),
    widget(`DynamoDB ${tableName}: throttles and system errors`, [
      [{ expression: `SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${tableName}'`, label: 'ThrottledRequests', id: 'throttled' }],
      [{ expression: `SELECT SUM(SystemErrors) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${tableName}'`, label: 'SystemErrors', id: 'system' }],
    ]),
    widget(`DynamoDB ${tableName}: consumed capacity`, [
      ['AWS/DynamoDB', 'ConsumedReadCapacityUnits', 'TableName', tableName, { stat: 'Sum' }],
      ['AWS/DynamoDB', 'ConsumedWriteCapacityUnits', 'TableName', tableName, { stat: 'Sum' }],
    ]),
    widget('Stream consumers: iterator age (ms)', streamConsumers.map((n) => ['AWS/Lambda', 'IteratorAge', 'FunctionName', fn(n), { stat: 'Maximum', label: n }])),
    widget('On-failure queues: messages waiting', queues.map((q) => ['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', v(`Queue${q}`, { 'Fn::GetAtt': [q, 'QueueName'] }), { stat: 'Maximum', label: q }])),
  ];
  return {
    Type: 'AWS::CloudWatch::Dashboard',
    Properties: {
      DashboardName: prefix,
      DashboardBody: { 'Fn::Sub': [JSON.stringify({ widgets }), vars] },
    },
  };
}

class Operations {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'before:package:finalize': () => this.apply() };
  }

  apply() {
    const sls = this.serverless;
    const service = sls.service;
    const stage = sls.getProvider('aws').getStage();
    if (stage === 'local') return;
    const naming = sls.getProvider('aws').naming;
    const template = service.provider.compiledCloudFormationTemplate;
    const resources = template.Resources;
    const config = service.custom?.operations ?? {};

    const { settings, dependsOn } = routeThrottles(resources, config.routeThrottles ?? {});
    const apiStage = resources[STAGE];
    if (!apiStage) throw new Error('Operations: the template has no HTTP API stage');
    apiStage.Properties.RouteSettings = settings;
    apiStage.DependsOn = [...new Set([...[apiStage.DependsOn ?? []].flat(), ...dependsOn])];

    const functionNames = service.getAllFunctions();
    // serverless.yml's own resources (the table, the queues) are merged in after this hook.
    const all = { ...service.resources?.Resources, ...resources };
    const built = build({
      service: service.service, stage, naming, resources: all, functionNames,
      asyncNames: asyncConsumers(service), alarmEmail: config.alarmEmail ?? '',
    });
    for (const [k, r] of Object.entries(built.resources)) {
      if (resources[k]) throw new Error(`Operations: resource "${k}" exists already`);
      resources[k] = r;
    }
    template.Parameters = { ...template.Parameters, ...built.parameters };
    template.Conditions = { ...template.Conditions, ...built.conditions };
  }
}

module.exports = Operations;
module.exports.routeThrottles = routeThrottles;
module.exports.asyncConsumers = asyncConsumers;
