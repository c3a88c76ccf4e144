import type { PacerClock } from '../src/github/api/paced-writes.js';

/**
 * A clock whose sleeps return at once and move its time on: code that paces itself (the write
 * pacer) runs in the tests without waiting, and the times it chose are there to check. A fake GitHub
 * given `clock: () => clock.now()` judges the same virtual time.
 */
export class VirtualClock implements PacerClock {
  /** Every sleep asked for, in order (ms). */
  readonly sleeps: number[] = [];

  constructor(private time = 1_700_000_000_000) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += Math.max(0, ms);
    return Promise.resolve();
  }

  /** Moves the time on without a sleep (time that passes in the work itself). */
  advance(ms: number): void {
    this.time += ms;
  }
}
