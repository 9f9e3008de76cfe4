/** The short run `npm test` makes: total cases across the suite, and the seed that makes it the same run every time. */
export const DEFAULT_FUZZ_RUNS = 240;
export const DEFAULT_FUZZ_SEED = 20_261_124;

export interface FuzzSettings {
  /** Cases across the whole suite, shared out among its properties (FUZZ_RUNS). */
  runs: number;
  /** fast-check's seed for every property (FUZZ_SEED). */
  seed: number;
  /** fast-check's replay path of one failure, with its seed (FUZZ_PATH); run that property alone, with -t. */
  path: string | undefined;
}

/** Reads FUZZ_RUNS, FUZZ_SEED and FUZZ_PATH, which `npm run fuzz -- --runs N --seed S --path P` sets. */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const runs = env.FUZZ_RUNS ? Number(env.FUZZ_RUNS) : DEFAULT_FUZZ_RUNS;
  const seed = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : DEFAULT_FUZZ_SEED;
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a whole number of cases, at least 1; got "${env.FUZZ_RUNS}"`);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be a whole number; got "${env.FUZZ_SEED}"`);
  return { runs, seed, path: env.FUZZ_PATH || undefined };
}
