import 'reflect-metadata';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { RouteFlags } from './route-flags';

describe('RouteFlags', () => {
  it('merges the flags of several decorators on one operation, whichever runs first', () => {
    class Operations {
      @RouteFlags({ a: true })
      @RouteFlags({ b: 'page' })
      both(): void {}
    }
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Operations.prototype.both)).toEqual({ a: true, b: 'page' });
  });

  it('keeps a later flag of the same name over an earlier one', () => {
    class Operations {
      @RouteFlags({ a: 'outer' })
      @RouteFlags({ a: 'inner' })
      one(): void {}
    }
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Operations.prototype.one)).toEqual({ a: 'outer' });
  });
});
