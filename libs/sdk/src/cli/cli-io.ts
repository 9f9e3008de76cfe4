/** What the CLI touches outside itself, injected so that tests run it in-process. */
export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** Unix seconds. */
  now: () => number;
  randomUUID: () => string;
  readFile: (path: string) => Promise<Uint8Array>;
  fetch: typeof fetch;
  /** Writes bytes to standard output as they are (export's CSV); resolves when it can take more. */
  write?: (chunk: Uint8Array) => Promise<void>;
  /** Resolves when a long-running command (listen) should stop: Ctrl-C or SIGTERM. */
  untilStopped?: Promise<void>;
}

/** Bad input: the CLI prints the message and exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Reads a file named by a flag; a file that cannot be read is bad input. */
export async function readInputFile(io: CliIo, flag: string, path: string): Promise<Uint8Array> {
  try {
    return await io.readFile(path);
  } catch (error) {
    throw new UsageError(`${flag} ${path} cannot be read: ${(error as Error).message}`);
  }
}
