/** The environment the service reads its configuration from. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Typed readers of environment variables. An unset or empty variable gives
 * the fallback (undefined for a URL); a bad value adds a problem naming the
 * variable, so that every problem is reported at once.
 */
export interface EnvValues {
  /** A whole number from min to max; the fallback when bad too. */
  int(name: string, fallback: number, min: number, max: number): number;
  /** `true` or `false`. */
  bool(name: string, fallback: boolean): boolean;
  /** A URL of one of the protocols (such as `https:`), returned as written. */
  url(name: string, protocols: string[]): string | undefined;
  /** One of the allowed words; the fallback when bad too. */
  choice<C extends string>(name: string, allowed: readonly C[], fallback: C): C;
}

/** The readers of env, adding each bad value's problem to problems. */
export function envValues(env: Env, problems: string[]): EnvValues {
  return {
    int: (name, fallback, min, max) => {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
        return fallback;
      }
      return Number(raw);
    },
    bool: (name, fallback) => {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false, got "${raw}"`);
      return raw === 'true';
    },
    url: (name, protocols) => {
      const raw = env[name];
      if (raw === undefined || raw === '') return undefined;
      try {
        const parsed = new URL(raw);
        if (!protocols.includes(parsed.protocol)) problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      } catch {
        problems.push(`${name} is not a URL`);
      }
      return raw;
    },
    choice: <C extends string>(name: string, allowed: readonly C[], fallback: C): C => {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      if ((allowed as readonly string[]).includes(raw)) return raw as C;
      problems.push(`${name} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got "${raw}"`);
      return fallback;
    },
  };
}
