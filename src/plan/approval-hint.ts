import { codeSpan } from '../github/markdown/outbound-neutralize.js';

/** The plan report's last word: how to approve, change or replace the plan, with this workflow's phrase. */
export function approvalHint(phrase: string, why: 'asked' | 'required'): string {
  const go = codeSpan(`${phrase} go`);
  return [
    '### Next',
    '',
    why === 'required'
      ? 'This repository asks for a plan before every change (`require_plan_approval`). Nothing was changed yet.'
      : 'Nothing was changed yet: this was a plan run.',
    '',
    `- To carry out this plan, comment ${go}.`,
    `- To carry it out with changes, comment ${codeSpan(`${phrase} go <your changes>`)}: your changes win over the plan.`,
    `- For a new plan, comment ${codeSpan(`${phrase} plan <task>`)}.`,
    '',
    'Anyone with write access to the repository may approve it.'
  ].join('\n');
}
