/** One page of a listing, as the service returns it. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * A listing that is both the first page and every item: `await` it for one
 * page, or walk every item across pages with `for await`, as stripe-node's
 * auto-pagination does. Pages are fetched one at a time, as the loop needs
 * them, so breaking out early fetches no more.
 */
export class AutoPaginatingList<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {}

  then<R1 = Page<T>, R2 = never>(onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null, onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
    return this.fetchPage(undefined).then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.fetchPage(undefined).catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every item, across all pages, in one array: for small listings only. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
