/**
 * The answer as compact JSON with every string in it (keys too) passed through `redact`: a secret
 * the model read during the run never reaches an output, and the text stays valid JSON (redacting
 * the serialized text could cut through an escape sequence).
 */
export function redactedJson(value: unknown, redact: (text: string) => string): string {
  const revived: unknown = JSON.parse(JSON.stringify(value), (_key, field: unknown) => {
    if (typeof field === 'string') return redact(field);
    if (typeof field === 'object' && field !== null && !Array.isArray(field))
      return Object.fromEntries(Object.entries(field).map(([name, inner]) => [redact(name), inner]));
    return field;
  });
  return JSON.stringify(revived);
}
