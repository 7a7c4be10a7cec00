// Work started side by side, where one part may fail early: Promise.all would answer at the
// first failure and leave the rest running past the answer, where Lambda freezes it and
// finishes it inside the next invocation (lib/log.ts). This waits for every part.

/** The values of every promise, once all have settled; else the first failure in the given order. */
export async function allSettled<T extends readonly unknown[]>(parts: readonly [...T]): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(parts);
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
