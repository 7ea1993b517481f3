import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AnswerTooLargeError } from '@fsm/contracts';

/** How a streamed answer is written: its headers and opening (known once the first page is read), each page (never empty), its end. */
export interface StreamedText<Page> {
  /** Set only once the first page is read: a refusal goes out as the API's JSON error, not as an attachment. */
  headers: Record<string, string>;
  head: () => string;
  page: (page: Page, first: boolean) => string;
  tail: string;
}

/**
 * The one way a long answer goes out (issue 28): the pages of a snapshot read
 * (projections' snapshotPages) written as they are read, so the process holds
 * one page, whatever the answer's length; the client's pace sets the reading's
 * (a byte stream of a small buffer: Node asks for the next page only when the
 * socket has taken the last one).
 *
 * The first page is read before answering: a refusal (the ceiling, counted in
 * the snapshot) or a failing query still gets the API's error answer instead
 * of a cut stream. When the client leaves, or the answer ends, the read is
 * ended (its transaction rolled back, its connection given back), even when
 * the stream never started.
 */
export async function sendStreamed<Page>(reply: FastifyReply, pages: AsyncGenerator<Page, void, undefined>, text: StreamedText<Page>): Promise<FastifyReply> {
  const first = await pages.next();
  const end = () => void pages.return(undefined).catch(() => undefined);
  reply.raw.once('close', end);
  async function* chunks(): AsyncGenerator<string> {
    try {
      yield text.head();
      let isFirst = true;
      for (let page = first; !page.done; page = await pages.next()) {
        yield text.page(page.value, isFirst);
        isFirst = false;
      }
      yield text.tail;
    } finally {
      end();
    }
  }
  return reply.headers(text.headers).send(Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 }));
}

/** The items of a page as the rest of a JSON array: `a,b` (`,a,b` after the first page). */
export function jsonArrayPage<Item>(write: (item: Item) => string = (item) => JSON.stringify(item)): (page: readonly Item[], first: boolean) => string {
  return (page, first) => (page.length === 0 ? '' : (first ? '' : ',') + page.map(write).join(','));
}

/**
 * The row ceiling of an unpaged answer (UNPAGED_ROWS_MAX, issue 28): told the
 * selection's count before its first row, refuses above `max` with 422 and
 * the route's French message.
 */
export function rowCeiling(max: number, message: (total: number) => string): (head: { total: number }) => void {
  return ({ total }) => {
    if (total > max) throw new AnswerTooLargeError(message(total), { total, max });
  };
}
