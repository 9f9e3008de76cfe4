import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';

export const IS_PUBLIC = 'paysign:isPublic';

/** Fastify route config key of unsigned routes, read by the signing pre-filter before Nest runs. */
export const PUBLIC_ROUTE = 'paysignPublic';

/** Marks an operation as unsigned (health, the contract, the docs page), for the guard and the pre-filter alike. */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), RouteConfig({ [PUBLIC_ROUTE]: true }));
