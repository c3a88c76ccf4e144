/**
 * What the transcript says about the box: whether the agent's commands ran in it (run_start.sandbox)
 * and what its proxy refused, per host and port (tool_result.sandbox_blocked), for the reviewer who
 * audits a downloaded transcript (`compact-agent transcript`).
 */
export interface AuditSandbox {
  readonly state: 'on' | 'off';
  readonly network: 'allowlist' | 'off';
  /** Why the box was off, or why its network was (absent when nothing to say). */
  readonly reason: string | undefined;
  readonly refused: readonly AuditRefusal[];
}

export interface AuditRefusal {
  readonly host: string;
  readonly port: number;
  /** Tool calls that met the refusal (one call may try many times: counted once). */
  readonly calls: number;
  readonly reason: string;
  readonly firstTurn: number;
}

interface StartRecord {
  readonly state: 'on' | 'off';
  readonly network: 'allowlist' | 'off';
  readonly reason?: string | undefined;
}

interface BlockedRecord {
  readonly turn: number;
  readonly sandbox_blocked?:
    readonly { readonly host: string; readonly port: number; readonly reason: string }[] | undefined;
}

/** Undefined for a transcript from before the box (run_start has no `sandbox`). */
export function sandboxAudit(
  start: StartRecord | undefined,
  toolResults: readonly BlockedRecord[]
): AuditSandbox | undefined {
  if (!start) return undefined;
  const refused = new Map<string, AuditRefusal>();
  for (const result of toolResults) {
    for (const block of result.sandbox_blocked ?? []) {
      const key = `${block.host}\0${block.port}`;
      const seen = refused.get(key);
      refused.set(
        key,
        seen
          ? { ...seen, calls: seen.calls + 1 }
          : { host: block.host, port: block.port, calls: 1, reason: block.reason, firstTurn: result.turn }
      );
    }
  }
  return { state: start.state, network: start.network, reason: start.reason, refused: [...refused.values()] };
}

/** One line for a terminal: the state, then each refused host with its count and reason. */
export function sandboxLine(sandbox: AuditSandbox | undefined): string {
  if (!sandbox) return 'Sandbox: not recorded (a transcript from before the box)';
  const state =
    sandbox.state === 'off'
      ? `off${sandbox.reason ? ` (${sandbox.reason})` : ''}`
      : `on, network ${sandbox.network === 'allowlist' ? 'allowed hosts only' : 'off'}${sandbox.reason ? ` (${sandbox.reason})` : ''}`;
  // Off: no proxy, so nothing could be refused (nor recorded).
  if (sandbox.state === 'off') return `Sandbox: ${state}`;
  if (sandbox.refused.length === 0) return `Sandbox: ${state} · nothing refused`;
  const hosts = sandbox.refused.map(
    (entry) =>
      `  ${entry.host}:${entry.port} ×${entry.calls} (${entry.reason}; first at turn ${entry.firstTurn})`
  );
  return [`Sandbox: ${state} · refused:`, ...hosts].join('\n');
}
