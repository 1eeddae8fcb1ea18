/** Where the remote service is and which key to use: flags > environment > config files. */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.js';
import { parseConfigFlag, type RouteplanConfig } from '../config/config.js';
import { ServiceClient, type ClientOptions } from './http.js';

/** The settings a connection reads (the command's resolved settings: flags > environment > config files). */
export type ConnectionSettings = Pick<RouteplanConfig, 'baseUrl' | 'apiKey' | 'apiKeyFile'>;

export function connect(settings: ConnectionSettings, extra: Omit<ClientOptions, 'baseUrl' | 'apiKey'> = {}): ServiceClient {
  if (!settings.baseUrl) {
    throw new InputError('no service URL: pass --remote <base-url>, set ROUTEPLAN_BASE_URL, or put base_url in routeplan.config.yaml', [
      { path: '--remote', message: 'required' },
    ]);
  }
  // A key file (clig.dev: secrets from files, not flags, which `ps` shows) is a flag: it beats the environment.
  const apiKey = settings.apiKeyFile !== undefined ? parseConfigFlag('apiKey', readKeyFile(settings.apiKeyFile)) : settings.apiKey;
  return new ServiceClient({ ...extra, baseUrl: settings.baseUrl, ...(apiKey ? { apiKey } : {}) });
}

/** The first non-empty line of the file, trimmed. Throws InputError naming the flag. */
function readKeyFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(
      `cannot read --api-key-file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      [{ path: '--api-key-file', message: 'cannot read the file' }],
      undefined,
      { cause: error },
    );
  }
  const key = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== '');
  if (key === undefined)
    throw new InputError(`--api-key-file ${path} is empty`, [{ path: '--api-key-file', message: 'the file holds no key' }]);
  return key;
}
