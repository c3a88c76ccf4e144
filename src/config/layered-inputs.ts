import type { ConfigFileSettings } from './config-file.js';
import type { InputNaming, InputReader } from './inputs.js';

/**
 * The one order of precedence: a value given where the run is started (a workflow's `with:`, a CLI
 * flag) wins over the repository's config file, which wins over the defaults (the parsers apply
 * those to what stays empty). action.yml declares no default for a setting the file can hold, so
 * an empty input here really means unset.
 */
export function layeredReader(given: InputReader, file: ConfigFileSettings | undefined): InputReader {
  return (name) => {
    const value = given(name);
    if (value.trim() !== '') return value;
    return file?.settings.get(name)?.value ?? '';
  };
}

/** Messages name a setting where it was set: `limits.max_turns in .github/compact-agent.yml on main`. */
export function layeredNaming(
  given: InputReader,
  file: ConfigFileSettings | undefined,
  naming: InputNaming
): InputNaming {
  return {
    ...naming,
    nameOf: (name) => {
      const fromFile = file?.settings.get(name);
      if (given(name).trim() !== '' || fromFile === undefined) return naming.nameOf(name);
      return `${fromFile.path} (in ${file!.source})`;
    }
  };
}
