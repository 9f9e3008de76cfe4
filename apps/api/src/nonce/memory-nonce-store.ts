import { sha256Bytes } from '@paysign/signing';
import { NonceShareExceededError, NonceStoreFullError, type NonceStore } from './nonce-store.interface';

export interface MemoryNonceStoreOptions {
  /** Milliseconds since the epoch. Default: `Date.now`. */
  now?: () => number;
  /** Live nonces held at most; beyond this every claim is refused (fails closed) rather than grow. Default: 6,000,000. */
  maxEntries?: number;
  /** Live nonces one API key may hold, so that one key's flood cannot fill the store for every merchant. Default: 120,000. */
  maxPerKey?: number;
}


const EMPTY = 0;
const TOMBSTONE = -1;
/** The table grows (or is rebuilt without tombstones) past this share of used slots, which keeps probe chains short. */
const MAX_LOAD = 0.75;
const MIN_CAPACITY = 1024;
/** A sweep tick visits this share of the table, so that every slot is visited every 16 ticks. */
const SWEEP_SLICES = 16;
/**
 * A refusal for lack of room first frees every expired nonce, but at most this
 * often: a key flooding past its share must not make each claim scan the table.
 */
const FULL_SWEEP_INTERVAL_MS = 1000;

/**
 * The embedded default, in compact form. Each nonce is kept as a 64-bit
 * fingerprint of SHA-256(apiKey, nonce), its expiry and its key's index, in
 * typed arrays (20 bytes a slot) of an open-addressing table kept at most
 * three quarters full, rather than as a string-keyed Map entry.
 *
 * A fingerprint is not the nonce: a new nonce whose fingerprint equals a live
 * one's is refused as a replay. With n live nonces that happens with
 * probability n / 2^64 per claim, under 1e-12 up to MAX_MEMORY_NONCES (18M),
 * and the client retries with a new nonce as after any replay answer. A
 * replay itself is never admitted.
 *
 * `claim` runs without awaiting, so it is atomic on Node's single thread.
 * Expired nonces are freed on the way by claims, and by a timer that sweeps a
 * slice of the table each second, so memory frees without traffic.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxPerKey: number;
  private capacity = MIN_CAPACITY;
  private fingerprintHigh = new Uint32Array(MIN_CAPACITY);
  private fingerprintLow = new Uint32Array(MIN_CAPACITY);
  /** Expiry in epoch ms; EMPTY for a slot unused since the last rebuild, TOMBSTONE for a freed one. */
  private expiresAt = new Float64Array(MIN_CAPACITY);
  private keyIndexOf = new Uint32Array(MIN_CAPACITY);
  /** Slots not EMPTY: held nonces and tombstones. */
  private used = 0;
  /** Nonces not yet freed; some may have expired since the sweeper passed. */
  private held = 0;
  private readonly keyIndexes = new Map<string, number>();
  private readonly heldByKey: number[] = [];
  private sweepCursor = 0;
  private lastFullSweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryNonceStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 6_000_000;
    this.maxPerKey = options.maxPerKey ?? 120_000;
  }

  /**
   * Frees the expired nonces of one slice of the table, so that memory frees
   * without traffic; the service's job runner calls it every
   * NONCE_SWEEP_INTERVAL_MS, and every slot is visited every 16 calls.
   */
  sweep(): void {
    this.sweepSlice(this.now());
  }

  async claim(apiKey: string, nonce: string, holdMs: number): Promise<boolean> {
    return this.claimNow(apiKey, nonce, holdMs, this.now());
  }

  /** Live nonces; for tests and metrics. Frees the expired ones first. */
  get size(): number {
    this.sweepAll(this.now());
    return this.held;
  }

  /** Nonces held, expired ones the sweeper has not reached yet included. */
  get heldCount(): number {
    return this.held;
  }

  /** Bytes of the table's typed arrays. */
  get tableBytes(): number {
    return this.fingerprintHigh.byteLength + this.fingerprintLow.byteLength + this.expiresAt.byteLength + this.keyIndexOf.byteLength;
  }

  isFull(): boolean {
    return this.held >= this.maxEntries;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.allocate(MIN_CAPACITY);
    this.held = 0;
    this.heldByKey.fill(0);
  }

  private claimNow(apiKey: string, nonce: string, holdMs: number, now: number): boolean {
    const digest = fingerprintOf(apiKey, nonce);
    const high = digest.readUInt32BE(0);
    const low = digest.readUInt32BE(4);
    const mask = this.capacity - 1;
    let slot = low & mask;
    let free = -1;
    // Linear probing to the first empty slot: a held fingerprint is always on this path, since none is ever removed from it
    // (a freed slot becomes a tombstone, which probes step over).
    for (;;) {
      const expires = this.expiresAt[slot] as number;
      if (expires === EMPTY) break;
      if (expires !== TOMBSTONE) {
        const same = this.fingerprintHigh[slot] === high && this.fingerprintLow[slot] === low;
        if (same && expires > now) return false;
        if (expires <= now) this.free(slot);
        // The same fingerprint, expired: no other copy of it can be further on, so the claim takes this slot.
        if (same) {
          free = slot;
          break;
        }
      }
      if (free === -1 && this.expiresAt[slot] === TOMBSTONE) free = slot;
      slot = (slot + 1) & mask;
    }

    const keyIndex = this.keyIndexFor(apiKey);
    if ((this.heldByKey[keyIndex] as number) >= this.maxPerKey || this.held >= this.maxEntries) {
      // Expired nonces not yet swept may be what fills the share or the store: free them, then look again.
      if (now - this.lastFullSweepAt >= FULL_SWEEP_INTERVAL_MS) {
        this.sweepAll(now);
        this.lastFullSweepAt = now;
        return this.claimNow(apiKey, nonce, holdMs, now);
      }
      if ((this.heldByKey[keyIndex] as number) >= this.maxPerKey) throw new NonceShareExceededError(`API key ${apiKey} holds its share of ${this.maxPerKey} live nonces`);
      throw new NonceStoreFullError(`the in-memory nonce store holds ${this.maxEntries} live nonces`);
    }
    const target = free === -1 ? slot : free;
    if (free === -1) this.used++;
    this.fingerprintHigh[target] = high;
    this.fingerprintLow[target] = low;
    this.expiresAt[target] = now + holdMs;
    this.keyIndexOf[target] = keyIndex;
    this.held++;
    this.heldByKey[keyIndex] = (this.heldByKey[keyIndex] as number) + 1;
    if (this.used > this.capacity * MAX_LOAD) this.rebuild(now);
    return true;
  }

  private keyIndexFor(apiKey: string): number {
    let index = this.keyIndexes.get(apiKey);
    if (index === undefined) {
      index = this.heldByKey.length;
      this.keyIndexes.set(apiKey, index);
      this.heldByKey.push(0);
    }
    return index;
  }

  private free(slot: number): void {
    this.expiresAt[slot] = TOMBSTONE;
    this.held--;
    const keyIndex = this.keyIndexOf[slot] as number;
    this.heldByKey[keyIndex] = (this.heldByKey[keyIndex] as number) - 1;
  }

  /** One tick of the timer: frees the expired nonces of the next slice of the table. */
  private sweepSlice(now: number): void {
    const slice = Math.ceil(this.capacity / SWEEP_SLICES);
    for (let visited = 0; visited < slice; visited++) {
      const slot = this.sweepCursor;
      const expires = this.expiresAt[slot] as number;
      if (expires !== EMPTY && expires !== TOMBSTONE && expires <= now) this.free(slot);
      this.sweepCursor = (slot + 1) & (this.capacity - 1);
    }
  }

  private sweepAll(now: number): void {
    for (let slot = 0; slot < this.capacity; slot++) {
      const expires = this.expiresAt[slot] as number;
      if (expires !== EMPTY && expires !== TOMBSTONE && expires <= now) this.free(slot);
    }
  }

  /** Re-inserts the held nonces into a table with no tombstones: twice as large when they fill more than half of the limit. */
  private rebuild(now: number): void {
    this.sweepAll(now);
    const [high, low, expires, keys, capacity] = [this.fingerprintHigh, this.fingerprintLow, this.expiresAt, this.keyIndexOf, this.capacity];
    const next = this.held > capacity * (MAX_LOAD / 2) ? capacity * 2 : capacity;
    this.allocate(next);
    const mask = next - 1;
    for (let from = 0; from < capacity; from++) {
      const expiry = expires[from] as number;
      if (expiry === EMPTY || expiry === TOMBSTONE) continue;
      let slot = (low[from] as number) & mask;
      while (this.expiresAt[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.fingerprintHigh[slot] = high[from] as number;
      this.fingerprintLow[slot] = low[from] as number;
      this.expiresAt[slot] = expiry;
      this.keyIndexOf[slot] = keys[from] as number;
      this.used++;
    }
  }

  private allocate(capacity: number): void {
    this.capacity = capacity;
    this.fingerprintHigh = new Uint32Array(capacity);
    this.fingerprintLow = new Uint32Array(capacity);
    this.expiresAt = new Float64Array(capacity);
    this.keyIndexOf = new Uint32Array(capacity);
    this.used = 0;
    this.sweepCursor = 0;
  }
}

/** SHA-256 of the API key and nonce; neither may hold a NUL, so the pair is unambiguous. */
function fingerprintOf(apiKey: string, nonce: string): Buffer {
  return sha256Bytes(`${apiKey}\0${nonce}`);
}
