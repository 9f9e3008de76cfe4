import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';

/**
 * Sets flags in an operation's Fastify route config, which the hooks read
 * before Nest runs (public, checkout, the enquiry limit). Unlike Nest's
 * `RouteConfig`, which replaces the config, flags from several decorators on
 * one operation are merged.
 */
export function RouteFlags(flags: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, ...flags }, handler);
    return descriptor;
  };
}

/** A flag of the route the request matched, as `RouteFlags` (or a route registered on Fastify directly) set it. */
export function routeFlag(request: FastifyRequest, flag: string): unknown {
  return request.routeOptions.config?.[flag as never];
}
