import { WriteBatcher } from './write-batcher';

/** A write that stays in flight until the test lets it end. */
function heldWrites() {
  const writes: Array<{ items: number[]; end: (error?: Error) => void }> = [];
  const write = (items: number[]) => new Promise<void>((resolve, reject) => writes.push({ items, end: (error) => (error ? reject(error) : resolve()) }));
  return { writes, write };
}

describe('WriteBatcher', () => {
  it('writes an item at once when nothing is in flight, and the items added meanwhile together in the next write', async () => {
    const { writes, write } = heldWrites();
    const batcher = new WriteBatcher(write, { maxBatch: 100 });
    const first = batcher.add(1);
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    const rest = [batcher.add(2), batcher.add(3), batcher.add(4)];
    expect(writes).toHaveLength(1);
    writes[0]?.end();
    await first;
    await new Promise(setImmediate);
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3, 4]]);
    writes[1]?.end();
    await Promise.all(rest);
  });

  it('carries at most its batch size in one write', async () => {
    const { writes, write } = heldWrites();
    const batcher = new WriteBatcher(write, { maxBatch: 2 });
    const added = [1, 2, 3, 4, 5].map((n) => batcher.add(n));
    for (let i = 0; i < 3; i++) {
      await new Promise(setImmediate);
      writes[i]?.end();
    }
    await Promise.all(added);
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("rejects each item of a failed write with its error, and goes on with the next", async () => {
    const { writes, write } = heldWrites();
    const batcher = new WriteBatcher(write, { maxBatch: 100 });
    const first = batcher.add(1);
    const second = [batcher.add(2), batcher.add(3)];
    writes[0]?.end();
    await first;
    await new Promise(setImmediate);
    writes[1]?.end(new Error('the store refused'));
    await expect(second[0]).rejects.toThrow('the store refused');
    await expect(second[1]).rejects.toThrow('the store refused');
    const later = batcher.add(4);
    expect(writes[2]?.items).toEqual([4]);
    writes[2]?.end();
    await later;
  });

  it("writes each item of a failed batch alone when the failure may be one item's, so that only that item fails", async () => {
    const written: number[][] = [];
    const write = async (items: number[]) => {
      written.push(items);
      if (items.includes(13)) throw new Error('the store refuses 13');
    };
    const batcher = new WriteBatcher(write, { maxBatch: 100, mayBeOneItem: (error) => (error as Error).message.startsWith('the store refuses') });
    const first = batcher.add(1);
    const rest = [12, 13, 14].map((n) => batcher.add(n));
    await first;
    const outcomes = await Promise.allSettled(rest);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written).toEqual([[1], [12, 13, 14], [12], [13], [14]]);
  });

  it('writes a batch again after each pause while the store is what fails it, and rejects it once the pauses are spent', async () => {
    let failures = 3;
    const write = jest.fn(async () => {
      if (failures-- > 0) throw new Error('Query read timeout');
    });
    const paused: number[] = [];
    const pause = async (ms: number) => void paused.push(ms);
    const batcher = new WriteBatcher(write, { maxBatch: 100, mayBeOneItem: () => false, retryDelaysMs: [250, 500, 1000], pause });
    await batcher.add(1);
    expect(write).toHaveBeenCalledTimes(4);
    expect(paused).toEqual([250, 500, 1000]);

    failures = 10;
    paused.length = 0;
    await expect(batcher.add(2)).rejects.toThrow('Query read timeout');
    expect(paused).toEqual([250, 500, 1000]);
  });

  it('refuses a batch size below one', () => {
    expect(() => new WriteBatcher(async () => undefined, { maxBatch: 0 })).toThrow(RangeError);
  });
});
