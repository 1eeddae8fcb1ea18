/**
 * Configuration precedence (decisions.md): flags > environment (ROUTEPLAN_*) > project file
 * (routeplan.config.yaml in the working directory) > user file (XDG config dir).
 * OWNER: CLI helper.
 */

export interface RouteplanConfig {
  baseUrl?: string;
  apiKey?: string;
  timeLimit?: number;
  seed?: number;
  threads?: number;
  roadFactor?: number;
  baseSpeed?: number;
}

export function resolveConfig(
  _flags: RouteplanConfig,
  _env: NodeJS.ProcessEnv = process.env,
  _cwd: string = process.cwd(),
): RouteplanConfig {
  throw new Error('not implemented yet');
}
