/**
 * Just enough of GraphQL for the fake: one operation (query or mutation) with variables, fields
 * with aliases and arguments (variables, numbers, strings, booleans, enums, input objects), nested
 * selections and `__typename`. No fragments or directives: the fake answers a query using them
 * with a GraphQL parse error, so a client that starts sending them finds out here, not on github.com.
 */

export type GqlArgValue =
  | { kind: 'variable'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'object'; fields: Record<string, GqlArgValue> };

export interface GqlField {
  alias: string;
  name: string;
  args: Record<string, GqlArgValue>;
  selection: GqlField[] | undefined;
  line: number;
  column: number;
}

export interface GqlOperation {
  kind: 'query' | 'mutation';
  selection: GqlField[];
}

export class GqlSyntaxError extends Error {}

interface Token {
  text: string;
  line: number;
  column: number;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s+|,|#[^\n]*|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*|\.\.\.|[{}()[\]:!$=@]/gy;
  let line = 1;
  let lineStart = 0;
  while (pattern.lastIndex < source.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(source);
    if (!match)
      throw new GqlSyntaxError(`Parse error on "${source[start] ?? ''}" (${line}:${start - lineStart + 1})`);
    const text = match[0];
    if (!/^\s|^,|^#/.test(text)) tokens.push({ text, line, column: start - lineStart + 1 });
    for (let i = 0; i < text.length; i++)
      if (text[i] === '\n') {
        line++;
        lineStart = start + i + 1;
      }
  }
  return tokens;
}

export function parseOperation(source: string): GqlOperation {
  const tokens = tokenize(source);
  let at = 0;
  const peek = (): string | undefined => tokens[at]?.text;
  const next = (): Token => {
    const token = tokens[at++];
    if (!token) throw new GqlSyntaxError('Parse error on end of input');
    return token;
  };
  const expect = (text: string): void => {
    const token = next();
    if (token.text !== text)
      throw new GqlSyntaxError(
        `Parse error on "${token.text}" (${token.line}:${token.column}), expected ${text}`
      );
  };
  const name = (): Token => {
    const token = next();
    if (!/^[A-Za-z_]/.test(token.text))
      throw new GqlSyntaxError(`Parse error on "${token.text}" (${token.line}:${token.column})`);
    return token;
  };

  const value = (): GqlArgValue => {
    const token = next();
    if (token.text === '$') return { kind: 'variable', name: name().text };
    if (token.text === '{') {
      const fields: Record<string, GqlArgValue> = {};
      while (peek() !== '}') {
        const key = name().text;
        expect(':');
        fields[key] = value();
      }
      expect('}');
      return { kind: 'object', fields };
    }
    if (token.text.startsWith('"')) return { kind: 'literal', value: JSON.parse(token.text) as string };
    if (/^-?\d/.test(token.text)) return { kind: 'literal', value: Number(token.text) };
    if (token.text === 'true' || token.text === 'false')
      return { kind: 'literal', value: token.text === 'true' };
    if (token.text === 'null') return { kind: 'literal', value: null };
    if (/^[A-Za-z_]/.test(token.text)) return { kind: 'literal', value: token.text };
    throw new GqlSyntaxError(`Parse error on "${token.text}" (${token.line}:${token.column})`);
  };

  const selection = (): GqlField[] => {
    expect('{');
    const fields: GqlField[] = [];
    while (peek() !== '}') {
      if (peek() === '...' || peek() === '@')
        throw new GqlSyntaxError('the fake GitHub GraphQL does not support fragments or directives');
      const first = name();
      let fieldName = first.text;
      const alias = first.text;
      if (peek() === ':') {
        next();
        fieldName = name().text;
      }
      const args: Record<string, GqlArgValue> = {};
      if (peek() === '(') {
        next();
        while (peek() !== ')') {
          const key = name().text;
          expect(':');
          args[key] = value();
        }
        expect(')');
      }
      const sub = peek() === '{' ? selection() : undefined;
      fields.push({ alias, name: fieldName, args, selection: sub, line: first.line, column: first.column });
    }
    expect('}');
    return fields;
  };

  let kind: GqlOperation['kind'] = 'query';
  if (peek() === 'query' || peek() === 'mutation') {
    kind = next().text as GqlOperation['kind'];
    if (peek() !== '{' && peek() !== '(') name();
    if (peek() === '(') {
      // Variable definitions: their types are not checked (GitHub would); values come from `variables`.
      let depth = 0;
      do {
        const text = next().text;
        if (text === '(') depth++;
        if (text === ')') depth--;
      } while (depth > 0);
    }
  }
  const operation = { kind, selection: selection() };
  if (at < tokens.length)
    throw new GqlSyntaxError('the fake GitHub GraphQL answers one operation per request');
  return operation;
}

/** An argument's value, with variables substituted. */
export function argValue(arg: GqlArgValue | undefined, variables: Record<string, unknown>): unknown {
  if (!arg) return undefined;
  if (arg.kind === 'variable') return variables[arg.name];
  if (arg.kind === 'literal') return arg.value;
  return Object.fromEntries(Object.entries(arg.fields).map(([k, v]) => [k, argValue(v, variables)]));
}
