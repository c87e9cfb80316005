import type { Env } from './env';
import { MissingSettingError, type SettingName } from './setting-error';

/** Reads a required setting, or throws MissingSettingError naming it. */
export function requireSetting(env: Env, name: SettingName): string {
  const value = env[name]?.trim();
  if (!value) throw new MissingSettingError(name);
  return value;
}

/** A comma-separated list setting, e.g. the accepted OAuth client ids; it must name at least one. */
export function requireListSetting(env: Env, name: SettingName): string[] {
  const items = requireSetting(env, name)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (!items.length) throw new MissingSettingError(name, 'lists nothing');
  return items;
}

/** An optional positive whole number; unset means `fallback`, anything else unusable is refused by name. */
export function positiveIntSetting(env: Env, name: SettingName, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new MissingSettingError(name, `must be a positive whole number, not "${raw}"`);
  return value;
}

/** An optional whole number where 0 means none (e.g. no cache); unset means `fallback`, anything else unusable is refused by name. */
export function wholeNumberSetting(env: Env, name: SettingName, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new MissingSettingError(name, `must be a whole number (0 or more), not "${raw}"`);
  return value;
}
