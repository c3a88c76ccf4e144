/**
 * The simulated runner pool: at most `size` jobs hold a runner at once, the rest wait in the order
 * they were queued, as jobs wait for a free runner on GitHub. `timeline` records each start and end
 * in order, so a test can read how many ran at once without timing anything.
 */
export interface RunnerEvent {
  readonly kind: 'start' | 'end';
  /** The job instance's display name, e.g. `shard (shard-01)`. */
  readonly name: string;
}

export class RunnerPool {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];
  readonly timeline: RunnerEvent[] = [];

  constructor(private readonly size: number) {}

  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    this.timeline.push({ kind: 'start', name });
    try {
      return await work();
    } finally {
      this.timeline.push({ kind: 'end', name });
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}

/** The most entries of `timeline` whose name passes `filter` that ran at once. */
export function mostAtOnce(
  timeline: readonly RunnerEvent[],
  filter: (name: string) => boolean = () => true
): number {
  let running = 0;
  let most = 0;
  for (const event of timeline) {
    if (!filter(event.name)) continue;
    running += event.kind === 'start' ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}
