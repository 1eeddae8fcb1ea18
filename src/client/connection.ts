/** Where the remote service is and which key to use: flags > environment > config files. */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.js';
import { resolveConfig } from '../config/config.js';
import { ServiceClient, type ClientOptions } from './http.js';

export interface ConnectionFlags {
  remote?: string;
  apiKey?: string;
  /** A file holding the key (clig.dev: secrets from files, not flags, which `ps` shows). */
  apiKeyFile?: string;
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
      ...(flags.apiKeyFile !== undefined ? { apiKey: readKeyFile(flags.apiKeyFile) } : {}),
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
