import { RouteFlags } from './route-flags';

/** Fastify route config key of unsigned routes, read by the signing pre-filter and the signature check. */
export const PUBLIC_ROUTE = 'paysignPublic';

/** Marks an operation as unsigned (health, the contract, the docs page). */
export const Public = () => RouteFlags({ [PUBLIC_ROUTE]: true });
