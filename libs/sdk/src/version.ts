// The package's own version, read from package.json at build time (the bundler
// inlines this one field), so that a release that bumps it needs no other edit.
import { version } from '../package.json';

/** Sent in the User-Agent. */
export const SDK_VERSION: string = version;
