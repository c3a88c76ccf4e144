import { gitHubClients, type GitHubClients } from '../../github/api/clients.js';
import { repositoryOf } from '../event-parts.js';
import type { ActionContext } from './action-context.js';

/** The run's GitHub clients: its repository, token and API URL, with retries warned in the job log. */
export function githubClientsOf(action: ActionContext): GitHubClients {
  return gitHubClients({
    token: action.config.github.token,
    repository: repositoryOf(action.event, action.runner),
    apiUrl: action.runner.apiUrl,
    options: { logger: { warning: action.commands.warning } }
  });
}
