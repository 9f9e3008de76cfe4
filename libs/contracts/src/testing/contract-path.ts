import * as path from 'node:path';

/** Absolute path of the OpenAPI contract that the types are generated from. */
export const CONTRACT_PATH = path.resolve(__dirname, '../../../../openapi/payment-api.yaml');
