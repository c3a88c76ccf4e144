import type { GitRepository } from '../git/repository.js';
import { readBaseConfigFile, type BaseConfigRequest } from './base-config-file.js';
import { ConfigFileError, type ConfigFileSettings } from './config-file.js';
import { parseActionConfig, type ActionConfig } from './github-inputs.js';
import { ACTION_INPUT_NAMING, InputError, type InputReader } from './inputs.js';
import { layeredNaming, layeredReader } from './layered-inputs.js';

/**
 * The action's settings from its two sources, merged in the one place they are judged: the step's
 * `with:` inputs over the repository's config file as the base branch has it, over the defaults.
 * Every problem of both is reported at once (InputError), before any model call.
 */
export async function readActionConfig(
  given: InputReader,
  env: NodeJS.ProcessEnv,
  git: GitRepository,
  request: BaseConfigRequest
): Promise<ActionConfig> {
  const problems: string[] = [];
  let file: ConfigFileSettings | undefined;
  try {
    file = await readBaseConfigFile(git, request);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    problems.push(...error.problems);
  }
  try {
    const config = parseActionConfig(
      layeredReader(given, file),
      env,
      layeredNaming(given, file, ACTION_INPUT_NAMING)
    );
    if (problems.length > 0) throw new InputError(problems);
    return config;
  } catch (error) {
    if (error instanceof InputError && problems.length > 0 && error.problems !== problems)
      throw new InputError([...problems, ...error.problems]);
    throw error;
  }
}
