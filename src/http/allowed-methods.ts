/** What Express's router stack holds per entry; only route entries have `route`. */
export interface RouteLayerLike {
  readonly route?: { readonly methods: Readonly<Record<string, boolean | undefined>> };
  match(path: string): boolean;
}

/**
 * The methods the app's routes accept for a path, as an `Allow` header lists them (HEAD with GET, as
 * Express answers it), or none when no route has this path. Reads the router itself, so it stays true to
 * every controller without a second route table.
 */
export function allowedMethods(stack: readonly RouteLayerLike[], path: string): string[] {
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !matches(layer, path)) continue;
    for (const [method, isAccepted] of Object.entries(layer.route.methods))
      if (isAccepted && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

function matches(layer: RouteLayerLike, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    // A parameter Express cannot decode: the path has this route's shape (the request got its 400 already).
    return true;
  }
}
