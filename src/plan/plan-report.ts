import { fence } from '../github/markdown/outbound-neutralize.js';
import { hiddenMarkdownForms } from './hidden-markdown.js';
import { visiblePlan } from './visible-plan.js';

/**
 * The plan as the report shows it: rendered when GitHub would show every word of it, otherwise as
 * plain text in a code block, with a line that says why. Either way the words on the page are
 * visiblePlan's text, which is what `/agent go` receives as `approved_plan`.
 */
export function planForReport(plan: string): string {
  const shown = visiblePlan(plan);
  const hidden = hiddenMarkdownForms(shown);
  if (hidden.length === 0) return shown;
  return [
    `_Shown as plain text, exactly as \`/agent go\` would receive it: the plan holds ${hidden.join(', ')}, which GitHub would render partly out of sight._`,
    '',
    fence(shown, 'text')
  ].join('\n');
}
