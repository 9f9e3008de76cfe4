import type { CliIo } from './cli-io';

/** An in-memory CliIo for tests: captured output, a fixed clock and counted UUIDs. */
export function createTestIo(overrides: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let uuids = 0;
  const io: CliIo = {
    env: {},
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    now: () => 1767225600,
    randomUUID: () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`,
    readFile: async () => {
      throw new Error('readFile was not expected');
    },
    fetch: async () => {
      throw new Error('fetch was not expected');
    },
    ...overrides,
  };
  return { io, out, err, lastJson: () => JSON.parse(out[out.length - 1] ?? 'null') as Record<string, unknown> };
}
