import type { RunAudit } from './run-audit.js';
import { buildAuditPageModel, type AuditPageOptions } from './page/page-model.js';
import { renderAuditPage } from './page/page-template.js';

export { DEFAULT_MAX_OUTPUT_CHARS } from './page/page-model.js';
export type HtmlReportOptions = AuditPageOptions;

/**
 * The audit as one self-contained HTML page (see src/audit/page/): the page model is computed from
 * the parsed transcript, then written out by the template with its chart, stylesheet and script.
 */
export function renderHtmlReport(audit: RunAudit, options: HtmlReportOptions = {}): string {
  return renderAuditPage(buildAuditPageModel(audit, options));
}
