/** A method that writes: what GitHub counts against the content and mutative-request limits (paced-writes.ts). */
export function isWriteMethod(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
