import { codeSpan, inlineText } from '../github/markdown/outbound-neutralize.js';
import type { ReviewOutcome } from './post-review.js';

/**
 * The review's part of the run's report (the tracking comment): what was posted and where, what was
 * already said, what went in the body and why, what was not reviewed, and which threads were closed.
 */
export function renderReviewSection(outcome: ReviewOutcome, phrase: string): string {
  const { summary } = outcome;
  const lines = [
    '### Review',
    '',
    outcome.postError !== undefined
      ? `❌ The review could not be posted: ${inlineText(outcome.postError)}. Its findings are listed below; ask for the review again once that is fixed.`
      : outcome.review
        ? `Posted [one review](${outcome.review.url}): ${summary.inline} on the diff, ${summary.inBody} in its body.`
        : summary.alreadySaid > 0
          ? `No review posted: every finding was already said in an earlier review (${summary.alreadySaid}).`
          : 'No review posted: the agent recorded no finding.',
    `Already said, not posted again: ${summary.alreadySaid}.` +
      (summary.repeatedInRun > 0
        ? ` Recorded twice in this run, posted once: ${summary.repeatedInRun}.`
        : ''),
    outcome.resolved + outcome.replied > 0
      ? `Earlier threads the new code fixes: ${outcome.resolved} resolved, ${outcome.replied} answered (resolving was not allowed).`
      : '',
    outcome.refusedInline !== undefined
      ? `⚠️ GitHub refused the line comments (${inlineText(outcome.refusedInline)}), so every finding went into the review's body.`
      : ''
  ].filter((line, index) => index < 2 || line !== '');
  const details = [
    outcome.postError !== undefined
      ? list(
          'Findings not posted',
          outcome.findings.map((item) => inlineText(item))
        )
      : '',
    list(
      'In the body, not on the diff',
      summary.bodyFindings.map((item) => `${codeSpan(item.location)}: ${inlineText(item.reason)}`)
    ),
    list(
      'Not reviewed',
      summary.skippedFiles.map(
        (file) =>
          `${codeSpan(file.path)}: ${file.reason === 'no-diff' ? 'GitHub shows no diff of it' : 'over the cap of files one review covers'}`
      )
    ),
    list(
      'Threads not closed',
      outcome.resolutionProblems.map((problem) => inlineText(problem))
    )
  ].filter((part) => part !== '');
  return [
    lines.join('\n'),
    ...details,
    `A new \`${phrase} review\` posts only what is new; a push changes nothing until someone asks again (or \`review_on_pull_request\` is on).`
  ].join('\n\n');
}

function list(title: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  const shown = items.slice(0, 30).map((item) => `- ${item}`);
  if (items.length > 30) shown.push(`- … and ${items.length - 30} more`);
  return `<details><summary>${title} (${items.length})</summary>\n\n${shown.join('\n')}\n\n</details>`;
}
