/** Where the remote service is and which key to use: flags > environment > config files. */
import { InputError } from '../errors.js';
import { resolveConfig } from '../config/config.js';
import { ServiceClient, type ClientOptions } from './http.js';

export interface ConnectionFlags {
  remote?: string;
  apiKey?: string;
}

export function connect(
  flags: ConnectionFlags,
  extra: Omit<ClientOptions, 'baseUrl' | 'apiKey'> = {},
  env: NodeJS.ProcessEnv = process.env,
): ServiceClient {
  const config = resolveConfig(
    {
      ...(flags.remote !== undefined ? { baseUrl: flags.remote } : {}),
      ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
    },
    env,
  );
  if (!config.baseUrl) {
    throw new InputError('no service URL: pass --remote <base-url>, set ROUTEPLAN_BASE_URL, or put base_url in routeplan.config.yaml', [
      { path: '--remote', message: 'required' },
    ]);
  }
  return new ServiceClient({ ...extra, baseUrl: config.baseUrl, ...(config.apiKey ? { apiKey: config.apiKey } : {}) });
}

/** `--timeout <seconds>`: a positive number. Throws InputError naming the flag. */
export function parseTimeoutSeconds(text: string | undefined, fallbackSeconds: number): number {
  if (text === undefined) return fallbackSeconds;
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new InputError(`invalid --timeout "${text}": expected a number of seconds above 0`, [
      { path: '--timeout', message: 'expected a number of seconds above 0' },
    ]);
  }
  return value;
}
