import { fence } from '../github/markdown/outbound-neutralize.js';
import { excerpt } from './excerpt.js';
import { describeCandidates } from './fixed-threads.js';
import { commentProse, ownFindingComments } from './repeat-check.js';
import type { ReviewContext } from './review-context.js';

/** Patch text the first message carries at most; past it, files are listed and the model reads them. */
export const MAX_TASK_PATCH_CHARS = 120_000;

/**
 * The first message of a review run: what to review (the pull request at its head, with the patches
 * GitHub shows), the focus a maintainer gave, the bot's findings already posted, and the threads to
 * check. Patches are the repository's text: they stand in a fenced diff block each, as data.
 */
export function reviewTask(
  context: ReviewContext,
  options: {
    readonly botLogin: string;
    readonly focus: string | undefined;
    /** What is reviewed, in a sentence; a pull request at its head by default (the CLI names a local range). */
    readonly subject?: string;
  }
): string {
  const { focus } = options;
  const subject =
    options.subject ?? `Review pull request #${context.pullNumber} at commit ${context.headSha}.`;
  const { files } = context;
  const sections = [
    `${subject} The working tree is that commit.`,
    focus === undefined ? '' : `The maintainer asks you to focus on: ${focus}`,
    patchesSection(context),
    files.skipped.length === 0
      ? ''
      : `Not reviewed (${files.skipped.length} files): ${files.skipped
          .slice(0, 50)
          .map(
            (file) =>
              `${file.path} (${file.reason === 'no-diff' ? 'GitHub shows no diff' : 'over the file cap'})`
          )
          .join(', ')}${files.skipped.length > 50 ? ', …' : ''}`,
    alreadyPostedSection(context, options.botLogin),
    context.candidates.length === 0
      ? ''
      : `Earlier threads of this review whose lines a push changed (resolve_thread with the comment_id of each one the new code fixes):\n${describeCandidates(context.candidates)}`
  ];
  return sections.filter((section) => section !== '').join('\n\n');
}

function patchesSection(context: ReviewContext): string {
  const blocks: string[] = [];
  const listed: string[] = [];
  let used = 0;
  for (const file of context.files.reviewed) {
    const patch = file.patch ?? '';
    const block = `${file.filename} (${file.status}):\n${fence(patch, 'diff')}`;
    if (used + block.length > MAX_TASK_PATCH_CHARS) listed.push(file.filename);
    else {
      blocks.push(block);
      used += block.length;
    }
  }
  const rest =
    listed.length === 0
      ? ''
      : `\n\nThese changed files' patches did not fit here; read them with read_file (and \`git log -p\`): ${listed.join(', ')}`;
  return `The changes (${context.files.reviewed.length} files):\n\n${blocks.join('\n\n')}${rest}`;
}

/** The bot's findings already on the pull request, one a line: the model should not record them again. */
function alreadyPostedSection(context: ReviewContext, botLogin: string): string {
  const own = ownFindingComments(context.earlierComments, botLogin);
  if (own.length === 0) return '';
  const lines = own.slice(0, MAX_LISTED_FINDINGS).map((comment) => {
    const where = comment.line === null ? `${comment.path} (outdated)` : `${comment.path}:${comment.line}`;
    return `- ${where}: "${excerpt(commentProse(comment.body), EXCERPT_CHARS)}"`;
  });
  return `Findings already posted on this pull request (do not record them again):\n${lines.join('\n')}`;
}

const MAX_LISTED_FINDINGS = 100;
const EXCERPT_CHARS = 160;
