/**
 * Finding the operation of a request in GitHub's description: path templates as regular
 * expressions, the most literal match first (`/pulls/comments` before `/pulls/{pull_number}`).
 * The description knows repositories only as `/repos/{owner}/{repo}/...`; GitHub's `link` headers
 * (and so the fake) also use `/repositories/{id}/...` for the same routes, which is read as the
 * `/repos/...` form here.
 */
import { githubSpec, resolveRef, type JsonObject, type OpenApiSpec } from './spec.js';

export interface Operation {
  /** e.g. `pulls/create-review`. */
  operationId: string;
  method: string;
  template: string;
  /** Path parameters by name, from the concrete path. */
  pathParams: Record<string, string>;
  definition: JsonObject;
}

interface Template {
  template: string;
  pattern: RegExp;
  names: string[];
  literals: number;
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head']);

let templates: Template[] | undefined;

function compile(spec: OpenApiSpec): Template[] {
  return Object.keys(spec.paths)
    .map((template) => {
      const names: string[] = [];
      const source = template
        .split('/')
        .map((segment) =>
          segment.replace(/\{([^}]+)\}|[^{}]+/g, (part, name: string | undefined) => {
            if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
            names.push(name);
            return '([^/]+)';
          })
        )
        .join('/');
      const literals = template.split('/').filter((s) => s !== '' && !s.includes('{')).length;
      return { template, pattern: new RegExp(`^${source}$`), names, literals };
    })
    .sort((a, b) => b.literals - a.literals || a.names.length - b.names.length);
}

/** `/repositories/{id}/rest` → `/repos/{owner}/{repo}/rest`, with the owner and name it stands for. */
export function canonicalPath(path: string, repo: { owner: string; name: string; id: number }): string {
  const byId = /^\/repositories\/(\d+)(\/.*)?$/.exec(path);
  if (!byId || Number(byId[1]) !== repo.id) return path;
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}${byId[2] ?? ''}`;
}

/** The operation for a method and a concrete path, or undefined when the description has none. */
export function findOperation(method: string, path: string): Operation | undefined {
  const spec = githubSpec();
  templates ??= compile(spec);
  const verb = method.toLowerCase();
  if (!METHODS.has(verb)) return undefined;
  for (const t of templates) {
    const match = t.pattern.exec(path);
    if (!match) continue;
    const item = spec.paths[t.template];
    const definition = resolveRef(spec, item?.[verb]) as JsonObject | undefined;
    if (!definition) continue;
    const pathParams = Object.fromEntries(
      t.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')])
    );
    return {
      operationId: String(definition.operationId),
      method: verb,
      template: t.template,
      pathParams,
      definition
    };
  }
  return undefined;
}
