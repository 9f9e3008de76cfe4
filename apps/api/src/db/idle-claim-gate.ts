import type { SqlQueryable } from './sql-client';

/**
 * Spares an idle queue its claim. A claim (a transaction, a row lock or an
 * advisory lock, a statement that ranks what waits) runs every poll
 * interval on every instance, most often to find nothing. After a claim
 * that took nothing, the next one first asks a single cheap question,
 * whether anything waits at all, and stops there when nothing does. After
 * a claim that took something it does not ask: under load the claim runs
 * as before, with no statement added.
 *
 * Skipping is safe because the question covers everything the claim could
 * take: a row that begins to wait just after the answer is found by the
 * next poll, as one that began to wait just after a claim would be.
 */
export class IdleClaimGate {
  /** Whether the last claim took nothing; so at start, since an instance usually starts on an idle queue. */
  private lastTookNothing = true;

  /** `anyWaiting` answers whether anything the claim could take is there: a superset, by one index probe. */
  constructor(private readonly anyWaiting: () => Promise<boolean>) {}

  async claim<T>(take: () => Promise<T[]>): Promise<T[]> {
    if (this.lastTookNothing && !(await this.anyWaiting())) return [];
    const taken = await take();
    this.lastTookNothing = taken.length === 0;
    return taken;
  }
}

/** Whether `select` returns any row, asked as `SELECT EXISTS (select)`. */
export async function anyRow(client: SqlQueryable, select: string): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>(`SELECT EXISTS (${select}) AS found`);
  return rows[0]?.found === true;
}
