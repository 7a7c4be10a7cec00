import { http } from '../../lib/http';
import { vapidKeys } from '../../lib/live/vapid';

export const handler = http({ auth: false }, async () => ({ body: { publicKey: (await vapidKeys()).publicKey } }));
