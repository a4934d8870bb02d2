import type { AppConfig } from './app-config';
import { deepFreeze } from './deep-freeze';

/** The nested groups of AppConfig, merged one level deep; every other key is replaced as a whole. */
const GROUPS = ['upstream', 'jwt', 'log', 'store', 'http'] as const;
type Group = (typeof GROUPS)[number];

/** Typed settings a host gives `AguiGatewayModule.forRoot({ config })`: any subset, groups partial too. */
export type AppConfigOverrides = Partial<Omit<AppConfig, Group>> & {
  readonly [K in Group]?: Partial<AppConfig[K]>;
};

/**
 * The configuration from the environment with a host's typed overrides on top. Pure. Values derived from
 * another setting (e.g. the generic workspace root from the state dir) were derived from the environment
 * already; set the variable in `environment` to move both.
 */
export function mergeConfig(base: AppConfig, overrides: AppConfigOverrides | undefined): AppConfig {
  if (!overrides) return base;
  const merged: Record<string, unknown> = { ...base, ...overrides };
  for (const group of GROUPS) {
    if (overrides[group] !== undefined) merged[group] = { ...base[group], ...overrides[group] };
  }
  return deepFreeze(merged as unknown as AppConfig);
}
