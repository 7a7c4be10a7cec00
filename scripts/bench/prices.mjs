// On-demand list prices the bill (scripts/bench/cost.mjs) multiplies by, one region: us-east-1
// (serverless.yml's default). Written from the published AWS price pages as known on the date
// given with each, WITHOUT network access to check them: every figure MUST be checked against
// the current AWS price list (https://aws.amazon.com/pricing, or the Pricing Calculator) before
// a decision is taken on it. Free tiers are left out (small beside 100,000 daily users, and not
// what a second year pays). Volume tiers are applied where the volumes reach them.
export const PRICES = {
  region: 'us-east-1',
  currency: 'USD',
  checkBeforeUse: 'Recalled list prices, not fetched: check each against the current AWS price list before a decision.',
  dynamodb: {
    source: 'AWS "Amazon DynamoDB pricing for on-demand capacity", us-east-1, as listed 2026-11 (the November 2024 on-demand reduction)',
    perMillionWriteUnits: 0.625,
    perMillionReadUnits: 0.125,
    storagePerGbMonth: 0.25,
    // Reads of the stream by a Lambda trigger are not billed (GetRecords from an event source mapping).
    streamReadsForLambda: 0,
  },
  lambda: {
    source: 'AWS "AWS Lambda pricing", us-east-1, Arm price, as listed 2026-11',
    // Arm (Graviton), first 7.5 billion GB-seconds a month; serverless.yml: architecture arm64.
    perGbSecond: 0.0000133334,
    perMillionRequests: 0.20,
  },
  apiGateway: {
    source: 'AWS "Amazon API Gateway pricing", HTTP APIs, us-east-1, as listed 2026-11',
    // Per million requests (each metered in 512 KB increments: every request here is smaller).
    tiers: [{ upTo: 300e6, perMillion: 1.00 }, { upTo: Infinity, perMillion: 0.90 }],
  },
  cloudwatchLogs: {
    source: 'AWS "Amazon CloudWatch pricing", Logs, Standard log class, us-east-1, as listed 2026-11',
    ingestionPerGb: 0.50,
    // Archived (stored) logs, billed on their compressed size.
    storagePerGbMonth: 0.03,
    // Each log event is metered with 26 bytes of its own besides its message.
    bytesPerEventOverhead: 26,
  },
  xray: {
    source: 'AWS "AWS X-Ray pricing", us-east-1, as listed 2026-11',
    perMillionTracesRecorded: 5.00,
  },
  s3: {
    source: 'AWS "Amazon S3 pricing", S3 Standard, us-east-1, as listed 2026-11',
    storagePerGbMonth: 0.023,
    perThousandPut: 0.005,
    perThousandGet: 0.0004,
  },
  cloudfront: {
    source: 'AWS "Amazon CloudFront pricing", on-demand, United States/Mexico/Canada, as listed 2026-11',
    // Data transfer out to the internet, per GB, by monthly volume (PriceClass_100: these edges).
    tiers: [{ upTo: 10 * 1024, perGb: 0.085 }, { upTo: 50 * 1024, perGb: 0.080 }, { upTo: 150 * 1024, perGb: 0.060 }, { upTo: 500 * 1024, perGb: 0.040 }, { upTo: Infinity, perGb: 0.030 }],
    perTenThousandHttpsRequests: 0.0100,
    // Transfer from S3 to CloudFront is not billed.
  },
};
