import type { App } from '../app.js';
import type { Request } from '../http/request.js';
import type { RouteDefinition } from './route.js';

/**
 * The placeholder names of a path or host pattern, as the compiler reads them: `/users/{id<\d+>}/{slug?}`
 * gives `'id' | 'slug'`. A placeholder ends at its first `}`, where a requirement's own braces (`\d{2}`)
 * leave only the tail of the requirement behind, which holds no placeholder.
 */
export type PlaceholderNames<Pattern extends string> = Pattern extends `${string}{${infer Body}}${infer Rest}` ? NameOf<Body> | PlaceholderNames<Rest> : never;

// `!name` (important: never left out), `name<requirement>`, `name?default`: the name is what comes before them.
type NameOf<Body extends string> = Body extends `!${infer Inner}`
  ? NameOf<Inner>
  : Body extends `${infer Name}<${string}`
    ? Name
    : Body extends `${infer Name}?${string}`
      ? Name
      : Body;

/**
 * The placeholders written optional without a default of their own, `{slug?}` or `{id<\d+>?}`: absent
 * from the request, they are undefined (`{page?1}` has its default instead).
 */
export type BareOptionalNames<Pattern extends string> = Pattern extends `${string}{${infer Body}}${infer Rest}` ? BareOptionalName<Body> | BareOptionalNames<Rest> : never;

type BareOptionalName<Body extends string> = Body extends `!${infer Inner}`
  ? BareOptionalName<Inner>
  : Body extends `${infer Name}<${string}>?`
    ? Name
    : Body extends `${infer Name}?`
      ? Name extends `${string}<${string}`
        ? never
        : Name
      : never;

/**
 * What a route's controller receives as `params`: its path and host placeholders and its defaults, each a
 * string, but for an optional placeholder with no default anywhere, which may be undefined.
 */
export type RouteParams<Path extends string, Host extends string = never, Defaults extends Record<string, string> = Record<never, string>> = Simplify<
  { [Name in Exclude<PlaceholderNames<Path> | PlaceholderNames<Host> | keyof Defaults, OptionalNames<Path, Host, Defaults>>]: string } & {
    [Name in OptionalNames<Path, Host, Defaults>]: string | undefined;
  }
>;

type OptionalNames<Path extends string, Host extends string, Defaults extends Record<string, string>> = Exclude<BareOptionalNames<Path> | BareOptionalNames<Host>, keyof Defaults>;

// One object type rather than an intersection, for editors' hovers and for type equality.
type Simplify<T> = { [K in keyof T]: T[K] };

/** A route definition whose controller is typed by its own path: the parameters its pattern declares. */
export type TypedRouteDefinition<Path extends string, Host extends string, Defaults extends Record<string, string>> = Omit<RouteDefinition, 'path' | 'host' | 'defaults' | 'controller'> & {
  path: Path;
  host?: Host;
  defaults?: Defaults;
  controller?: (request: Request, params: RouteParams<Path, Host, Defaults>, app: App) => unknown;
};

/**
 * A route definition as it is, its controller's `params` typed from the path, as Hono types them: a
 * misspelt `{ idd }` is a compile error. Nothing happens at run time; a plain object does as well.
 * @example
 * defineRoute({ name: 'note', path: '/notes/{id<\\d+>}', controller: (request, { id }) => Response.text(id) })
 */
export function defineRoute<const Path extends string, const Host extends string = never, const Defaults extends Record<string, string> = Record<never, string>>(
  route: TypedRouteDefinition<Path, Host, Defaults>,
): RouteDefinition {
  return route as RouteDefinition;
}
