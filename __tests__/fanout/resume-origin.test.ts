import { describe, expect, it } from '@jest/globals';
import { untrustedEarlierRunProblem } from '../../src/action/fanout/plan-role.js';

const REPO = 'octo-org/app';

describe('which earlier run of the fan-out workflow a resume may read', () => {
  it('takes a dispatched or scheduled run of this repository', () => {
    expect(
      untrustedEarlierRunProblem({ event: 'workflow_dispatch', headRepository: REPO }, REPO)
    ).toBeUndefined();
    expect(
      untrustedEarlierRunProblem({ event: 'schedule', headRepository: 'Octo-Org/App' }, REPO)
    ).toBeUndefined();
  });

  it("refuses a pull request's run, whose head's workflow file wrote the plan", () => {
    expect(untrustedEarlierRunProblem({ event: 'pull_request', headRepository: REPO }, REPO)).toBe(
      'which was started by a pull_request event, not by a dispatch or a schedule'
    );
    expect(
      untrustedEarlierRunProblem({ event: 'pull_request_target', headRepository: REPO }, REPO)
    ).toContain('pull_request_target');
  });

  it('refuses a run whose head came from another repository, and one whose event GitHub did not name', () => {
    expect(untrustedEarlierRunProblem({ event: 'workflow_dispatch', headRepository: 'fork/app' }, REPO)).toBe(
      'whose code came from fork/app, not from octo-org/app'
    );
    expect(untrustedEarlierRunProblem({}, REPO)).toContain('an event GitHub did not name');
  });
});
