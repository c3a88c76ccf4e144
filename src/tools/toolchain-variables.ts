/**
 * What the set-up actions export for later steps, so that a test the agent runs finds the toolchain
 * the workflow installed. Read in each action's source on 2026-11-25 (`core.exportVariable` calls):
 * - actions/setup-java (src/distributions/base-installer.ts): JAVA_HOME and
 *   JAVA_HOME_<major>_<ARCH>; graalvm/installer.ts: GRAALVM_HOME; maven-args.ts: MAVEN_ARGS.
 *   (auth.ts also exports GNUPGHOME, the keyring of an imported signing key: not passed.)
 * - actions/setup-go (src/main.ts): GOTOOLCHAIN=local, and GOROOT for Go < 1.9; the bin folders of
 *   GOROOT and GOPATH go to PATH.
 * - actions/setup-python (src/find-python.ts, find-pypy.ts, find-graalpy.ts): pythonLocation,
 *   Python_ROOT_DIR, Python2_ROOT_DIR, Python3_ROOT_DIR, PKG_CONFIG_PATH, and on Linux LD_LIBRARY_PATH.
 * - actions/setup-dotnet (src/installer.ts): DOTNET_ROOT (from DOTNET_INSTALL_DIR).
 * - actions/setup-node (src/authutil.ts): NPM_CONFIG_USERCONFIG (an .npmrc that names
 *   ${NODE_AUTH_TOKEN} rather than holding it), and NODE_AUTH_TOKEN, which the secret rules refuse.
 * Every one of them also adds its bin folders to PATH through GITHUB_PATH; the runner puts those in
 * front of PATH for later steps, so they arrive in the PATH this action starts with.
 * The rest are toolchain locations workflows and runner images set: GOPATH, GOBIN, PYTHONPATH,
 * VIRTUAL_ENV (an activated venv, e.g. astral-sh/setup-uv's activate-environment), NVM_DIR.
 */
export const TOOLCHAIN_VARIABLES: readonly string[] = [
  'JAVA_HOME',
  'GRAALVM_HOME',
  'MAVEN_ARGS',
  'GOROOT',
  'GOPATH',
  'GOBIN',
  'GOTOOLCHAIN',
  'pythonLocation',
  'Python_ROOT_DIR',
  'Python2_ROOT_DIR',
  'Python3_ROOT_DIR',
  'PKG_CONFIG_PATH',
  'LD_LIBRARY_PATH',
  'PYTHONPATH',
  'VIRTUAL_ENV',
  'DOTNET_ROOT',
  'DOTNET_INSTALL_DIR',
  'NPM_CONFIG_USERCONFIG',
  'NVM_DIR',
  'AGENT_TOOLSDIRECTORY'
];

/**
 * Names that locate a toolchain by convention: `*_HOME` (JAVA_HOME, GRADLE_HOME, MAVEN_HOME,
 * ANDROID_HOME, CARGO_HOME, RUSTUP_HOME, GRADLE_USER_HOME), `*_ROOT` (DOTNET_ROOT, ANDROID_SDK_ROOT),
 * and the versioned copies the runner images and setup-java keep side by side (JAVA_HOME_17_X64,
 * GOROOT_1_22_X64, JAVA_HOME_21_ARM64). A name that only matches a pattern passes only when its value
 * is an absolute path: a location is not a secret, and a token under such a name is not let through.
 */
export const TOOLCHAIN_PATTERNS: readonly RegExp[] = [
  /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_HOME$/,
  /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_ROOT$/,
  /^(?:[A-Za-z][A-Za-z0-9]*_)*(?:HOME|ROOT|GOROOT)_[0-9]+(?:_[0-9]+)*_[A-Za-z0-9]+$/
];

/** An absolute path, or a list of them (POSIX, or Windows drive paths): what a location holds. */
export function isPathValue(value: string): boolean {
  // No line breaks, quotes or expansions: a path, not a script or a quoted token.
  if (/[\r\n\t"'`$]/.test(value)) return false;
  const windows = /^[A-Za-z]:[\\/]/.test(value);
  const parts = value.split(windows ? ';' : ':').filter((part) => part !== '');
  const absolute = windows ? /^[A-Za-z]:[\\/]/ : /^\//;
  return parts.length > 0 && parts.every((part) => absolute.test(part));
}
