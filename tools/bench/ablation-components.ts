// What bench:server -- --ablate switches off one at a time, and --rounds all at once.

/** The components of apps/api/src/http/ablations.ts, with what the table calls them; bench-server.ts refuses a name it does not know. */
export const COMPONENTS = [
  ['log', 'the request log line', 'both'],
  ['metrics', 'the request metrics', 'both'],
  ['context', 'the request context (id, X-Request-Id, decorations)', 'both'],
  ['strict', 'the strict head checks (Host, fragment)', 'both'],
  ['idle-hooks', 'hooks idle on this route (4)', 'both'],
  ['error-filter', 'the Nest error filter', 'both'],
  ['rate-limit', "the API key's rate limits", 'signed'],
  ['nonce', 'the nonce claim', 'signed'],
  ['prefilter', 'the signing pre-filter', 'signed'],
  ['jobs', "the background jobs (not the merchants' sync)", 'both'],
  ['validation', 'the body validation (class-validator)', 'creates'],
  ['serialisation', 'the response serialisation (JSON.stringify)', 'creates'],
] as const;

/** Every component, as the "all" variant switches them off. */
export const EVERY_COMPONENT: readonly string[] = COMPONENTS.map(([name]) => name);
