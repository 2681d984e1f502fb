/** A route pattern for wouter that matches any of a flow's paths (with an optional trailing slash). */
export function routePattern(paths: readonly string[]): RegExp {
  const escaped = paths.map((path) => path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return new RegExp(`^(?:${escaped.join('|')})\\/?$`);
}
