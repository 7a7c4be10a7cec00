// createdAt is unique within a thread (contract section 5), which makes it a cursor that
// can never skip or repeat. Each write to a thread takes a timestamp strictly after the
// thread head's last one (post.lastCommentAt / comment.lastReplyAt) and sets it, under the
// condition that the head's value is still older: racing writers commit one at a time and
// in increasing timestamp order, so a reader paging past a cursor never misses a later write.

/** max(now, last + 1 ms), as the contract's ISO timestamp. */
export function nextInThread(last: string | undefined, now: number = Date.now()): string {
  const prev = last ? Date.parse(last) : Number.NaN;
  return new Date(Number.isNaN(prev) || now > prev ? now : prev + 1).toISOString();
}
