// Runs thunks with at most `limit` in flight, answers in their order. Race tests keep enough
// requests in flight to race on the same items, without starting hundreds at once in one
// process: started together, they queue behind one another at DynamoDB Local until the last
// ones outlive the 10 s a function gets (AWS gives each request a container of its own).
export async function inFlight<T>(limit: number, thunks: (() => Promise<T>)[]): Promise<T[]> {
  const out = new Array<T>(thunks.length);
  let next = 0;
  const lane = async () => {
    while (next < thunks.length) {
      const i = next++;
      out[i] = await thunks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, thunks.length) }, lane));
  return out;
}
