import { http } from '../../lib/http';
import { config } from '../../lib/config';
import { trendingTags } from '../../lib/tags/trends';

export const handler = http({}, async () => ({ body: { tags: await trendingTags(config.trendsIntervalSeconds) } }));
