/**
 * Why `name` cannot be used as a branch name, or undefined when it can. The rules are git's
 * (`git check-ref-format --branch`), made stricter where a name would reach a git command line:
 * no leading `-` (an option), no `..` (a range), no `:` (a refspec), no `@{` (a reflog), no
 * whitespace or control characters, and a plain branch name rather than a full ref.
 */
export function branchNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.length > 250) return 'it is longer than 250 characters';
  if (name.startsWith('-')) return "it starts with '-', which git would read as an option";
  if (name.includes('..')) return "it contains '..', which git reads as a range";
  if (name.includes('@{')) return "it contains '@{', which git reads as a reflog entry";
  if (name === '@' || name === 'HEAD') return `"${name}" names a commit, not a branch`;
  if (name.startsWith('refs/')) return 'give the branch name alone (e.g. "develop"), not a full ref';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name))
    return 'it contains a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return "it starts or ends with '/', or has an empty part between two '/'";
  if (name.endsWith('.')) return "it ends with '.'";
  const parts = name.split('/');
  if (parts.some((part) => part.startsWith('.'))) return "a part of it starts with '.'";
  if (parts.some((part) => part.endsWith('.lock'))) return "a part of it ends with '.lock'";
  return undefined;
}
