/**
 * Contract checks against GitHub's OpenAPI description (@octokit/openapi): every request the
 * project sends and every answer a fake gives must be one github.com could take or give.
 *
 *   expectNoContractViolations(fake); // after a test: nothing the fake saw or said broke the contract
 */
import type { ContractViolation } from './contract.js';

export * from './contract.js';
export { KNOWN_SPEC_GAPS, SPEC_FILE, SPEC_PACKAGE } from './spec.js';
export { canonicalPath, findOperation, type Operation } from './operations.js';

/** One violation in a line or two: what, where, and Ajv's words. */
export function describeViolation(v: ContractViolation): string {
  const what = `${v.direction} ${v.method} ${v.path}${v.status !== undefined ? ` → ${v.status}` : ''}`;
  const op = v.operationId ?? 'no operation in the description';
  const errors = v.errors.map((e) => `${e.in}${e.instancePath ? ` ${e.instancePath}` : ''}: ${e.message}`);
  const shown = errors.slice(0, 5).join('; ');
  return `${what} (${op}): ${shown}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}`;
}

/** Fails, listing them, when anything the fake saw or answered broke GitHub's description. */
export function expectNoContractViolations(fake: {
  readonly contractViolations: readonly ContractViolation[];
}): void {
  if (fake.contractViolations.length === 0) return;
  throw new Error(
    `GitHub contract violations (${fake.contractViolations.length}):\n` +
      fake.contractViolations.map((v) => `- ${describeViolation(v)}`).join('\n')
  );
}
