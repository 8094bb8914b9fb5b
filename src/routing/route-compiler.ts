import { mayShareCharacters } from './character-overlap.js';
import { findRequirementProblem, isUnbounded, toNonCapturing } from './requirement-safety.js';

/**
 * Characters that, in front of an optional placeholder, are left out together with it
 * (Symfony's RouteCompiler::SEPARATORS): `/blog/{page}` with a default matches `/blog`.
 */
const SEPARATORS = '/,;.:-_~+*=@|';
/**
 * A placeholder's name: word characters and any character beyond ASCII, as Symfony's `[\w\x80-\xFF]`
 * takes every byte of a UTF-8 name (`{café}`).
 */
export const PLACEHOLDER_NAME = '[\\w\\u0080-\\uffff]+';
const PLACEHOLDER = new RegExp(`\\{(!)?(${PLACEHOLDER_NAME})\\}`, 'g');
const ANY_PLACEHOLDER = new RegExp(`\\{${PLACEHOLDER_NAME}\\}`, 'g');
const LEADING_PLACEHOLDER = new RegExp(`^\\{${PLACEHOLDER_NAME}\\}`);
// In bytes, as Symfony counts them (strlen).
const MAX_VARIABLE_LENGTH = 32;

export type PatternToken =
  | { kind: 'text'; text: string }
  | {
      kind: 'variable';
      prefix: string;
      regex: string;
      name: string;
      important: boolean;
      /** The requirement as the reference writes it in messages: as given, or its default (`[^/]++`). */
      shown: string;
    };

/** A path or host pattern compiled to a regular expression. Group n + 1 captures `variables[n]`. */
export interface CompiledPattern {
  tokens: PatternToken[];
  variables: string[];
  /** Regex source without anchors, exactly as Symfony's compiler builds it (possessive `++` aside). */
  source: string;
  /** Index of the first token that may be left out, or Infinity. */
  firstOptional: number;
  /** Literal text every matching path starts with (Symfony's static prefix). */
  staticPrefix: string;
}

export interface PatternOptions {
  isHost: boolean;
  requirements: Readonly<Record<string, string>>;
  /** Names of placeholders that have a default value (and may therefore be optional). */
  hasDefault: (name: string) => boolean;
}

/** Thrown with a plain message; compileRoute() wraps it in a RouteDefinitionError naming the route. */
export class PatternError extends Error {}

/**
 * Compiles `/items/{id}` into tokens and a regex, following Symfony's RouteCompiler: a placeholder without
 * a requirement matches anything but `/` (`.` for hosts) and the next separator; trailing placeholders
 * with defaults become optional together with the separator before them.
 * @example compilePattern('/blog/{page}', { isHost: false, requirements: { page: '\\d+' }, hasDefault: (n) => n === 'page' }).source
 * // '/blog(?:/(\\d+))?'
 */
export function compilePattern(pattern: string, { isHost, requirements, hasDefault }: PatternOptions): CompiledPattern {
  const defaultSeparator = isHost ? '.' : '/';
  const tokens: PatternToken[] = [];
  const variables: string[] = [];
  let pos = 0;
  for (const match of pattern.matchAll(PLACEHOLDER)) {
    const name = match[2] as string;
    const preceding = pattern.slice(pos, match.index);
    pos = match.index + match[0].length;
    const precedingChar = preceding.slice(-1);
    const isSeparator = precedingChar !== '' && SEPARATORS.includes(precedingChar);
    if (/^\d/.test(name)) throw new PatternError(`placeholder "${name}" cannot start with a digit in "${pattern}".`);
    if (variables.includes(name)) throw new PatternError(`"${pattern}" cannot reference placeholder "${name}" more than once.`);
    if (Buffer.byteLength(name) > MAX_VARIABLE_LENGTH) throw new PatternError(`placeholder "${name}" is longer than ${MAX_VARIABLE_LENGTH} bytes.`);
    if (isSeparator && preceding !== precedingChar) tokens.push({ kind: 'text', text: preceding.slice(0, -1) });
    else if (!isSeparator && preceding !== '') tokens.push({ kind: 'text', text: preceding });

    // An own key only: `{constructor}` would otherwise take Object's constructor as its requirement.
    let regex = Object.hasOwn(requirements, name) ? requirements[name] : undefined;
    let shown = regex ?? '';
    if (regex === undefined) {
      const following = pattern.slice(pos);
      const next = findNextSeparator(following);
      const other = next !== '' && next !== defaultSeparator;
      regex = `[^${escapeInClass(defaultSeparator)}${other ? escapeInClass(next) : ''}]+`;
      // Symfony's own spelling: preg_quote()d separators, and possessive where nothing can follow that
      // the placeholder could have matched (JavaScript has no possessive quantifier: the match is the same).
      const possessive = (next !== '' && !LEADING_PLACEHOLDER.test(following)) || following === '';
      shown = `[^${pregQuote(defaultSeparator)}${other ? pregQuote(next) : ''}]+${possessive ? '+' : ''}`;
    } else {
      const problem = findRequirementProblem(regex);
      if (problem !== undefined) throw new PatternError(`the requirement "${regex}" of placeholder "${name}" is refused: ${problem}.`);
      regex = toNonCapturing(regex);
    }
    tokens.push({ kind: 'variable', prefix: isSeparator ? precedingChar : '', regex, name, important: match[1] === '!', shown });
    variables.push(name);
  }
  if (pos < pattern.length) tokens.push({ kind: 'text', text: pattern.slice(pos) });
  refuseAmbiguousNeighbours(pattern, tokens);
  for (const token of tokens) {
    if (token.kind !== 'text' || !/[{}]/.test(token.text)) continue;
    // `{id:\d+}` (Hono, FastRoute, Laravel) or `{id(\d+)}`: a requirement spelt another router's way.
    const foreign = new RegExp(`\\{(${PLACEHOLDER_NAME})(?::(.+)|\\((.+)\\))\\}`).exec(token.text);
    // `{slug:post}`, `{id:post.id}`: Symfony 7.1 maps the value to a controller argument, which keel does not.
    if (foreign?.[2] !== undefined && /^[A-Za-z_]\w*(?:\.\w+)?$/.test(foreign[2])) {
      throw new PatternError(`"${pattern}" has a mapped placeholder "${foreign[0]}", which keel does not read (the controller receives params.${foreign[1]!}): write "{${foreign[1]!}}".`);
    }
    if (foreign !== null) {
      const fixed = `{${foreign[1]!}<${foreign[2] ?? foreign[3]!}>}`;
      throw new PatternError(`"${pattern}" has a malformed placeholder "${foreign[0]}": a requirement is written in angle brackets, "${fixed}".`);
    }
    throw new PatternError(`"${pattern}" has an unmatched brace or a malformed placeholder.`);
  }

  let firstOptional = Infinity;
  if (!isHost) {
    for (let i = tokens.length - 1; i >= 0; i--) {
      const token = tokens[i] as PatternToken;
      if (token.kind !== 'variable' || token.important || !hasDefault(token.name)) break;
      firstOptional = i;
    }
  }
  const source = tokens.map((_, i) => tokenSource(tokens, i, firstOptional)).join('');
  return { tokens, variables, source, firstOptional, staticPrefix: staticPrefixOf(tokens, hasDefault) };
}

// Symfony's optional parts are `(…)?`. Written `(?:…|)` here: the same choice (the part first, else
// nothing), but where the part matches the empty string (`{page<\d*>?1}` on `/`) PCRE captures '' and
// JavaScript's `?` refuses an empty iteration, leaving the placeholder to its default.
/**
 * Two placeholders with nothing between them, both unbounded and able to match the same characters
 * (`/archive/{year}{month}`, whose default requirements are both `[^/]+`): a value splits between them in
 * as many ways as it is long, and a near-miss makes the matcher try each, for every neighbour more: a 4 kB
 * path kept the event loop for 40 s with three of them. PCRE gives up after a million steps and the
 * reference answers no match; JavaScript never gives up, so keel refuses the route at start-up instead,
 * saying how to make the split unambiguous.
 */
function refuseAmbiguousNeighbours(pattern: string, tokens: PatternToken[]): void {
  for (let i = 1; i < tokens.length; i++) {
    const [before, token] = [tokens[i - 1]!, tokens[i]!];
    if (before.kind !== 'variable' || token.kind !== 'variable' || token.prefix !== '') continue;
    if (isUnbounded(before.regex) && isUnbounded(token.regex) && mayShareCharacters(before.regex, token.regex)) {
      throw new PatternError(
        `placeholders "${before.name}" and "${token.name}" follow each other in "${pattern}" with unbounded requirements that match the same characters: where one ends is ambiguous, and a long path makes matching take seconds. Bound one (\`{${before.name}<\\d{4}>}\`), or put a separator between them.`,
      );
    }
  }
}

function tokenSource(tokens: PatternToken[], index: number, firstOptional: number): string {
  const token = tokens[index] as PatternToken;
  if (token.kind === 'text') return escapeRegex(token.text);
  if (index === 0 && firstOptional === 0) return `${escapeRegex(token.prefix)}(?:(${token.regex})|)`;
  let source = `${escapeRegex(token.prefix)}(${token.regex})`;
  if (index >= firstOptional) {
    source = `(?:${source}`;
    if (index === tokens.length - 1) source += '|)'.repeat(tokens.length - firstOptional - (firstOptional === 0 ? 1 : 0));
  }
  return source;
}

function staticPrefixOf(tokens: PatternToken[], hasDefault: (name: string) => boolean): string {
  const first = tokens[0];
  if (first === undefined) return '';
  if (first.kind === 'variable') return hasDefault(first.name) || first.prefix === '/' ? '' : first.prefix;
  const second = tokens[1];
  if (second?.kind === 'variable' && second.prefix !== '/' && !hasDefault(second.name)) return first.text + second.prefix;
  return first.text;
}

function findNextSeparator(following: string): string {
  const rest = following.replace(ANY_PLACEHOLDER, '');
  const first = rest[0] ?? '';
  return first !== '' && SEPARATORS.includes(first) ? first : '';
}

/** Escapes regex syntax characters only: the `u` flag refuses escapes of anything else. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

// PHP's preg_quote() of one separator character.
function pregQuote(ch: string): string {
  return /[.\\+*?[^\]$(){}=!<>|:#-]/.test(ch) ? `\\${ch}` : ch;
}

function escapeInClass(ch: string): string {
  return /[\\\]^-]/.test(ch) ? `\\${ch}` : ch;
}
