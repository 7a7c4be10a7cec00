// A counting semaphore: at most `size` tasks run at once, the others wait in arrival order.
export class Slots {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Tasks running now. */
  get active(): number { return this.running; }

  /** Tasks waiting for a slot. */
  get waiting(): number { return this.queue.length; }

  /** Runs `task` once a slot is free; the slot is given back however it ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next waiter (running stays the same), else it is freed.
      if (next) next();
      else this.running--;
    }
  }
}
