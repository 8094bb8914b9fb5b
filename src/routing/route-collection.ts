import { Matcher } from './matcher.js';
import { Route, type RouteDefinition } from './route.js';
import { RouteDefinitionError } from './routing-errors.js';

/**
 * The route table, in definition order: the order decides which of two routes matching the same path wins.
 * Each definition is compiled when added, so an invalid route fails at start-up, not on a request.
 * @example
 * const routes = new RouteCollection().addAll([
 *   { name: 'home', path: '/', methods: ['GET'], controller: home },
 *   { name: 'item', path: '/items/{id<\\d+>}', controller: item },
 * ]);
 */
export class RouteCollection implements Iterable<Route> {
  #routes = new Map<string, Route>();
  #matcher: Matcher | undefined;

  add(definition: RouteDefinition): this {
    const route = new Route(definition);
    if (this.#routes.has(route.name)) throw new RouteDefinitionError(route.name, `a route with this name is already defined.${duplicateHint(route.name)}`);
    this.#routes.set(route.name, route);
    this.#matcher = undefined;
    return this;
  }

  /**
   * A matcher of the table as it is now, built once until a route is added: the router and the profiler's
   * routing panel, which replays each recorded request on the table, share it instead of indexing every
   * route again for each panel shown.
   */
  matcher(): Matcher {
    return (this.#matcher ??= new Matcher(this));
  }

  addAll(definitions: Iterable<RouteDefinition>): this {
    for (const definition of definitions) this.add(definition);
    return this;
  }

  get(name: string): Route | undefined {
    return this.#routes.get(name);
  }

  has(name: string): boolean {
    return this.#routes.has(name);
  }

  get size(): number {
    return this.#routes.size;
  }

  [Symbol.iterator](): Iterator<Route> {
    return this.#routes.values();
  }
}

// What two routes of one name usually mean: a name keel's own routes use (the profiler's are there in
// debug only, so the clash shows in dev alone), or two staticFiles() left with their default name.
function duplicateHint(name: string): string {
  if (name === 'static_files') return ' Each staticFiles() route needs a name of its own: staticFiles({ …, name: \'assets\' }).';
  if (name.startsWith('_')) return ' Names starting with "_" are keel\'s own (its profiler and error preview routes, mounted in debug): give the route another name.';
  return '';
}
