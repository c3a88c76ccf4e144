/** GitHub refused a read for a reason the person can fix (a bad token, a missing permission, a repository it cannot see). */
export class GitHubAccessError extends Error {
  override readonly name = 'GitHubAccessError';
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message);
  }
}
