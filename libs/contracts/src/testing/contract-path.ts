import * as path from 'node:path';

/** Absolute path of the OpenAPI contract that the types are generated from. */
export const CONTRACT_PATH = path.resolve(__dirname, '../../../../openapi/payment-api.yaml');

/** Absolute path of the dashboard's contract; its paths are relative to /payment/dashboard/api. */
export const DASHBOARD_CONTRACT_PATH = path.resolve(__dirname, '../../../../openapi/dashboard-api.yaml');
