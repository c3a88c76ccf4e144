/**
 * A server's outputSchema is external data: the SDK's default check runs its `pattern` with a
 * backtracking engine on the action's event loop, and `^(a+)+$` on 40 a's and a '!' froze a run past
 * every timeout (found by review). The client is built with a validator that does not run them.
 */
import { SKIP_OUTPUT_SCHEMAS } from '../../../src/tools/mcp/server-connection.js';

describe('MCP output schemas', () => {
  it('are not evaluated: a catastrophic pattern returns at once and the data passes through', () => {
    const validate = SKIP_OUTPUT_SCHEMAS.getValidator<{ s: string }>({
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(a+)+$' } }
    });
    const data = { s: `${'a'.repeat(40)}!` };
    // With the SDK's default validator this call does not return for minutes.
    expect(validate(data)).toEqual({ valid: true, data, errorMessage: undefined });
  });
});
