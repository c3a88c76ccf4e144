/**
 * A fan-out input the person can fix (an empty unit list, a cap too small, a manifest from
 * elsewhere): its message is one paragraph that says what to do. Nothing already done is lost
 * when one is thrown: it is raised before a shard starts or only about the input it names.
 */
export class FanoutInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FanoutInputError';
  }
}
