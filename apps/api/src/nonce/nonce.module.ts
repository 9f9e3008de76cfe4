import { Inject, Injectable, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { JobRunner } from '../jobs/job-runner';
import type { WatchedStore } from '../stores/store-probe';
import { MemoryNonceStore } from './memory-nonce-store';
import { NonceStore } from './nonce-store.interface';

/** Injection token of the nonce store as readiness watches it. */
export const WatchedNonceStore = Symbol('WatchedNonceStore');

/** How often a slice of the in-memory table is swept; every slot is visited every 16 sweeps. */
const MEMORY_NONCE_SWEEP_INTERVAL_MS = 1000;

/** Frees expired nonces of the in-memory store without traffic, as a job. */
@Injectable()
class MemoryNonceSweep implements OnModuleInit {
  constructor(
    private readonly jobs: JobRunner,
    @Inject(MemoryNonceStore) private readonly store: MemoryNonceStore | null,
  ) {}

  onModuleInit(): void {
    const store = this.store;
    if (store) this.jobs.add({ name: 'nonce-sweep', intervalMs: MEMORY_NONCE_SWEEP_INTERVAL_MS, run: async () => store.sweep() });
  }
}

/** The nonce store the config chose (Redis or memory), instrumented, for the signature check and readiness. */
@Module({})
export class NonceModule {
  static forRoot(options: { store: NonceStore; memory: MemoryNonceStore | undefined; watched: WatchedStore }): DynamicModule {
    return {
      module: NonceModule,
      global: true,
      providers: [
        { provide: NonceStore, useValue: options.store },
        { provide: MemoryNonceStore, useValue: options.memory ?? null },
        { provide: WatchedNonceStore, useValue: options.watched },
        MemoryNonceSweep,
      ],
      exports: [NonceStore, WatchedNonceStore],
    };
  }
}
