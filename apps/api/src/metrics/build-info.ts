// The version is the service's package.json's, read when it is bundled (the
// bundler inlines this one field). The commit is what `git rev-parse HEAD`
// said when tsup built the bundle (apps/api/tsup.config.ts defines it); run
// from the sources (tests), or built outside a git checkout, it is `unknown`.
import { version } from '../../package.json';

/** Replaced by tsup's `define` with the commit the bundle was built from; undeclared when running from the sources. */
declare const PAYSIGN_BUILD_COMMIT: string | undefined;

/** What `paysign_build_info` reports, so that a dashboard shows which build each instance runs. */
export interface BuildInfo {
  /** apps/api/package.json's version. */
  version: string;
  /** The git commit the bundle was built from, or `unknown`. */
  commit: string;
}

export const BUILD_INFO: BuildInfo = {
  version,
  commit: typeof PAYSIGN_BUILD_COMMIT === 'string' && PAYSIGN_BUILD_COMMIT !== '' ? PAYSIGN_BUILD_COMMIT : 'unknown',
};
