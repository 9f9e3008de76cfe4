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
 * Slots of the table being replaced that each claim moves into the new one.
 * A rebuild then ends within capacity / 32 claims, before the claims made
 * meanwhile (at most that many) could fill the new table past its load.
 */
const MOVED_PER_CLAIM = 32;
/**
 * A refusal for lack of room first frees every expired nonce, but at most this
 * often: a key flooding past its share must not make each claim scan the table.
 */
const FULL_SWEEP_INTERVAL_MS = 1000;

/** One open-addressing table: a 64-bit fingerprint, an expiry and a key index per slot, in typed arrays (20 bytes a slot). */
class Slots {
  readonly fingerprintHigh: Uint32Array;
  readonly fingerprintLow: Uint32Array;
  /** Expiry in epoch ms; EMPTY for a slot never used, TOMBSTONE for a freed one. */
  readonly expiresAt: Float64Array;
  readonly keyIndexOf: Uint32Array;
  /** Slots not EMPTY: held nonces and tombstones. */
  used = 0;

  constructor(readonly capacity: number) {
    this.fingerprintHigh = new Uint32Array(capacity);
    this.fingerprintLow = new Uint32Array(capacity);
    this.expiresAt = new Float64Array(capacity);
    this.keyIndexOf = new Uint32Array(capacity);
  }

  get bytes(): number {
    return this.fingerprintHigh.byteLength + this.fingerprintLow.byteLength + this.expiresAt.byteLength + this.keyIndexOf.byteLength;
  }

  /** The slot holding this fingerprint, expired or not, or -1: linear probing to the first EMPTY slot, stepping over tombstones. */
  find(high: number, low: number): number {
    const mask = this.capacity - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const expires = this.expiresAt[slot] as number;
      if (expires === EMPTY) return -1;
      if (expires !== TOMBSTONE && this.fingerprintHigh[slot] === high && this.fingerprintLow[slot] === low) return slot;
    }
  }

  /** Puts a fingerprint known to be absent into the first EMPTY slot of its probe chain. */
  insertAbsent(high: number, low: number, expiresAt: number, keyIndex: number): void {
    const mask = this.capacity - 1;
    let slot = low & mask;
    while (this.expiresAt[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.fingerprintHigh[slot] = high;
    this.fingerprintLow[slot] = low;
    this.expiresAt[slot] = expiresAt;
    this.keyIndexOf[slot] = keyIndex;
    this.used++;
  }
}

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
 *
 * The table is rebuilt (larger, or without its tombstones) a little at a
 * time, as Redis resizes its dictionaries: the new table takes the claims
 * while each claim, and each sweep, moves a few slots of the old one into it.
 * Until the old one is empty, a claim looks in both. A rebuild all at once
 * held every request behind it: 94 ms at 400,000 live nonces, and more as the
 * table grows.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxPerKey: number;
  private table = new Slots(MIN_CAPACITY);
  /** The table a rebuild is emptying into `table`, and how far it has got; undefined when no rebuild is under way. */
  private draining: { table: Slots; next: number } | undefined;
  /** Nonces not yet freed, in both tables; some may have expired since the sweeper passed. */
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
   * NONCE_SWEEP_INTERVAL_MS, and every slot is visited every 16 calls. A
   * rebuild under way moves as large a slice, so it ends without traffic too.
   */
  sweep(): void {
    const now = this.now();
    this.sweepSlice(now);
    if (this.draining) this.moveSlots(Math.ceil(this.draining.table.capacity / SWEEP_SLICES), now);
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

  /** Bytes of the tables' typed arrays, the one a rebuild is emptying included. */
  get tableBytes(): number {
    return this.table.bytes + (this.draining?.table.bytes ?? 0);
  }

  isFull(): boolean {
    return this.held >= this.maxEntries;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.table = new Slots(MIN_CAPACITY);
    this.draining = undefined;
    this.sweepCursor = 0;
    this.held = 0;
    this.heldByKey.fill(0);
  }

  private claimNow(apiKey: string, nonce: string, holdMs: number, now: number): boolean {
    const digest = fingerprintOf(apiKey, nonce);
    const high = digest.readUInt32BE(0);
    const low = digest.readUInt32BE(4);
    // A nonce held in the table being emptied is as held as any: a live copy there is a replay, an expired one is freed.
    if (this.draining) {
      const old = this.draining.table;
      const slot = old.find(high, low);
      if (slot !== -1) {
        if ((old.expiresAt[slot] as number) > now) return false;
        this.free(old, slot);
      }
    }
    const { table } = this;
    const mask = table.capacity - 1;
    let slot = low & mask;
    let free = -1;
    // Linear probing to the first empty slot: a held fingerprint is always on this path, since none is ever removed from it
    // (a freed slot becomes a tombstone, which probes step over).
    for (;;) {
      const expires = table.expiresAt[slot] as number;
      if (expires === EMPTY) break;
      if (expires !== TOMBSTONE) {
        const same = table.fingerprintHigh[slot] === high && table.fingerprintLow[slot] === low;
        if (same && expires > now) return false;
        if (expires <= now) this.free(table, slot);
        // The same fingerprint, expired: no other copy of it can be further on, so the claim takes this slot.
        if (same) {
          free = slot;
          break;
        }
      }
      if (free === -1 && table.expiresAt[slot] === TOMBSTONE) free = slot;
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
    if (free === -1) table.used++;
    table.fingerprintHigh[target] = high;
    table.fingerprintLow[target] = low;
    table.expiresAt[target] = now + holdMs;
    table.keyIndexOf[target] = keyIndex;
    this.held++;
    this.heldByKey[keyIndex] = (this.heldByKey[keyIndex] as number) + 1;
    if (this.draining) this.moveSlots(MOVED_PER_CLAIM, now);
    if (table.used > table.capacity * MAX_LOAD) this.beginRebuild(now);
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

  private free(table: Slots, slot: number): void {
    table.expiresAt[slot] = TOMBSTONE;
    this.held--;
    const keyIndex = table.keyIndexOf[slot] as number;
    this.heldByKey[keyIndex] = (this.heldByKey[keyIndex] as number) - 1;
  }

  /** One tick of the timer: frees the expired nonces of the next slice of the table. */
  private sweepSlice(now: number): void {
    const { table } = this;
    const slice = Math.ceil(table.capacity / SWEEP_SLICES);
    for (let visited = 0; visited < slice; visited++) {
      const slot = this.sweepCursor;
      const expires = table.expiresAt[slot] as number;
      if (expires !== EMPTY && expires !== TOMBSTONE && expires <= now) this.free(table, slot);
      this.sweepCursor = (slot + 1) & (table.capacity - 1);
    }
  }

  private sweepAll(now: number): void {
    for (const table of this.draining ? [this.draining.table, this.table] : [this.table]) {
      for (let slot = 0; slot < table.capacity; slot++) {
        const expires = table.expiresAt[slot] as number;
        if (expires !== EMPTY && expires !== TOMBSTONE && expires <= now) this.free(table, slot);
      }
    }
  }

  /**
   * Starts emptying the table into a new one with no tombstones: twice as
   * large when its nonces (expired ones not yet swept included) fill more
   * than half of the limit. A rebuild still under way is finished first,
   * which the pace of MOVED_PER_CLAIM leaves for only a table that no claim
   * touched for a while.
   */
  private beginRebuild(now: number): void {
    if (this.draining) this.moveSlots(this.draining.table.capacity, now);
    const old = this.table;
    const next = this.held > old.capacity * (MAX_LOAD / 2) ? old.capacity * 2 : old.capacity;
    this.table = new Slots(next);
    this.sweepCursor = 0;
    this.draining = { table: old, next: 0 };
  }

  /** Moves up to `count` slots of the table being emptied into the new one (expired nonces are freed, not moved), and ends the rebuild once none is left. */
  private moveSlots(count: number, now: number): void {
    const draining = this.draining as { table: Slots; next: number };
    const old = draining.table;
    const end = Math.min(old.capacity, draining.next + count);
    for (let slot = draining.next; slot < end; slot++) {
      const expires = old.expiresAt[slot] as number;
      if (expires === EMPTY || expires === TOMBSTONE) continue;
      if (expires <= now) {
        this.free(old, slot);
        continue;
      }
      this.table.insertAbsent(old.fingerprintHigh[slot] as number, old.fingerprintLow[slot] as number, expires, old.keyIndexOf[slot] as number);
      // A tombstone, not EMPTY, so that the probe chains of the slots not moved yet stay whole.
      old.expiresAt[slot] = TOMBSTONE;
    }
    draining.next = end;
    if (end === old.capacity) this.draining = undefined;
  }
}

/** SHA-256 of the API key and nonce; neither may hold a NUL, so the pair is unambiguous. */
function fingerprintOf(apiKey: string, nonce: string): Buffer {
  return sha256Bytes(`${apiKey}\0${nonce}`);
}
