import { IdleClaimGate } from './idle-claim-gate';

/** A queue whose claims and questions are counted. */
function queue(initially: string[] = []) {
  const waiting = [...initially];
  const counts = { asked: 0, claims: 0 };
  const gate = new IdleClaimGate(async () => {
    counts.asked += 1;
    return waiting.length > 0;
  });
  const claim = (limit: number) =>
    gate.claim(async () => {
      counts.claims += 1;
      return waiting.splice(0, limit);
    });
  return { waiting, counts, claim };
}

describe('IdleClaimGate', () => {
  it('asks first on an idle queue and does not claim', async () => {
    const { counts, claim } = queue();
    expect(await claim(10)).toEqual([]);
    expect(await claim(10)).toEqual([]);
    expect(counts).toEqual({ asked: 2, claims: 0 });
  });

  it('claims as soon as something waits, and goes on claiming without asking while claims take something', async () => {
    const { waiting, counts, claim } = queue();
    await claim(2);
    waiting.push('a', 'b', 'c');
    expect(await claim(2)).toEqual(['a', 'b']);
    expect(await claim(2)).toEqual(['c']);
    expect(counts).toEqual({ asked: 2, claims: 2 });
  });

  it('asks again after a claim that took nothing', async () => {
    const { waiting, counts, claim } = queue(['a']);
    expect(await claim(5)).toEqual(['a']);
    // Not asked: the last claim took something, so this one runs in full and finds nothing.
    expect(await claim(5)).toEqual([]);
    expect(counts).toEqual({ asked: 1, claims: 2 });
    expect(await claim(5)).toEqual([]);
    expect(counts).toEqual({ asked: 2, claims: 2 });
    waiting.push('b');
    expect(await claim(5)).toEqual(['b']);
    expect(counts).toEqual({ asked: 3, claims: 3 });
  });

  it('claims in full when the question says something waits, even if the claim then takes nothing', async () => {
    // Rows that wait but cannot be taken yet (not due, leased elsewhere): the question is a superset of the claim.
    let claims = 0;
    const gate = new IdleClaimGate(async () => true);
    for (let i = 0; i < 3; i += 1)
      await gate.claim(async () => {
        claims += 1;
        return [];
      });
    expect(claims).toBe(3);
  });

  it('passes a failing question on, as the claim would fail, and asks again next time', async () => {
    let down = true;
    let asked = 0;
    const gate = new IdleClaimGate(async () => {
      asked += 1;
      if (down) throw new Error('store down');
      return false;
    });
    await expect(gate.claim(async () => ['never'])).rejects.toThrow('store down');
    down = false;
    expect(await gate.claim(async () => ['never'])).toEqual([]);
    expect(asked).toBe(2);
  });
});
