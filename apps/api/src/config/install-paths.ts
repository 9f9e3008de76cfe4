import * as path from 'node:path';

/** Where the files the service ships with are; they differ between the sources, the bundle and a deployed folder. */
export interface InstallPaths {
  sandboxMerchantsFile: string;
  contractPath: string;
  docs: DocsPaths;
  /** The merchant dashboard's built app (apps/dashboard/dist), served at /payment/dashboard/. */
  dashboardDir: string;
}

export interface DocsPaths {
  /** Redoc's standalone bundle, served so that the reference loads nothing from another origin. */
  redocBundlePath: string;
  /** docs/protocol.md, served as /payment/docs/protocol. */
  protocolPath: string;
  /** docs/runbooks.md, served as /payment/docs/runbooks: what to do for each alert and each incident. */
  runbooksPath: string;
  /** The signing test vectors, served as /payment/docs/vectors.json. */
  vectorsPath: string;
}

/** apps/api/src, when the service runs from its sources (tests, tsx). */
export const SOURCE_DIR = path.resolve(__dirname, '..');

/**
 * The shipped files, found from the folder the running code is in: `src/`
 * (the sources) and `dist/` (the bundle) sit one level below apps/api, in
 * the monorepo; any other folder is a deployed one, which holds its own
 * config/, openapi/ and docs/ beside the bundle.
 */
export function installPaths(codeDir: string): InstallPaths {
  const name = path.basename(codeDir);
  if (name !== 'src' && name !== 'dist') {
    return {
      sandboxMerchantsFile: path.join(codeDir, 'config/merchants.sandbox.json'),
      contractPath: path.join(codeDir, 'openapi/payment-api.yaml'),
      dashboardDir: path.join(codeDir, 'dashboard'),
      docs: {
        redocBundlePath: path.join(codeDir, 'docs/redoc.standalone.js'),
        protocolPath: path.join(codeDir, 'docs/protocol.md'),
        runbooksPath: path.join(codeDir, 'docs/runbooks.md'),
        vectorsPath: path.join(codeDir, 'docs/vectors.json'),
      },
    };
  }
  const apiRoot = path.resolve(codeDir, '..');
  const repository = path.resolve(apiRoot, '../..');
  return {
    sandboxMerchantsFile: path.join(apiRoot, 'config/merchants.sandbox.json'),
    contractPath: path.join(repository, 'openapi/payment-api.yaml'),
    dashboardDir: path.join(repository, 'apps/dashboard/dist'),
    docs: {
      // Resolved when read: a deployed service never reads this path, and has no redoc package to resolve.
      get redocBundlePath() {
        return require.resolve('redoc/bundles/redoc.standalone.js', { paths: [apiRoot] });
      },
      protocolPath: path.join(repository, 'docs/protocol.md'),
      runbooksPath: path.join(repository, 'docs/runbooks.md'),
      vectorsPath: path.join(repository, 'libs/signing/vectors.json'),
    },
  };
}
