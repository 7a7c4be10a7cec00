// The VAPID key pair (RFC 8292) Web Push messages are signed with: on deployed stages an SSM
// SecureString parameter (VAPID_KEYS_PARAMETER, `/aperture/<stage>/vapid-keys`), read at first
// use and again every JWT_KEYS_CACHE_SECONDS, like the token signing keys; on the local stage
// config/local.json's development pair. Value: `{ publicKey, privateKey, subject }` (base64url
// keys as `web-push generate-vapid-keys` prints them; subject a mailto: or https: URL).
import { config } from '../config';
import { dynamo } from '../db/client';
import { getParameter } from '../aws/ssm';
import * as localConfig from '../../config/local.json';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

export function parseVapidKeys(text: string, source: string): VapidKeys {
  let v: Record<string, unknown>;
  try { v = JSON.parse(text) as Record<string, unknown>; } catch { throw new Error(`${source}: not JSON`); }
  const { publicKey, privateKey, subject } = v;
  if (typeof publicKey !== 'string' || !B64URL.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65) throw new Error(`${source}: publicKey must be a base64url 65-byte P-256 key`);
  if (typeof privateKey !== 'string' || !B64URL.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32) throw new Error(`${source}: privateKey must be a base64url 32-byte key`);
  if (typeof subject !== 'string' || !/^(mailto:|https:\/\/)/.test(subject)) throw new Error(`${source}: subject must be a mailto: or https: URL`);
  if (config.stage !== 'local' && publicKey === localConfig.vapidKeys.publicKey) throw new Error(`${source}: the development pair is refused outside the local stage`);
  return { publicKey, privateKey, subject };
}

let cached: { keys: Promise<VapidKeys>; at: number } | undefined;

export function vapidKeys(): Promise<VapidKeys> {
  const parameter = process.env.VAPID_KEYS_PARAMETER;
  if (!parameter) {
    if (config.stage !== 'local') return Promise.reject(new Error('VAPID_KEYS_PARAMETER is not set'));
    return Promise.resolve(parseVapidKeys(process.env.VAPID_KEYS ?? JSON.stringify(localConfig.vapidKeys), 'config/local.json vapidKeys'));
  }
  const now = Date.now();
  if (!cached || now - cached.at > config.jwtKeys.cacheSeconds * 1000) {
    const keys = getParameter(parameter, { region: config.region, sdk: dynamo.config, endpoint: config.jwtKeys.ssmEndpoint })
      .then((p) => parseVapidKeys(p.value, parameter));
    keys.catch(() => { if (cached?.keys === keys) cached = undefined; });
    cached = { keys, at: now };
  }
  return cached.keys;
}
