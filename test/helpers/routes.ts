import type { Express } from 'express';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  /** A router's layers; or, for the operations' dispatcher (api/operations/express.ts), the routers it chooses among. */
  handle?: { stack?: Layer[]; routers?: Array<{ stack: Layer[] }> };
}

/**
 * Paths that are not REST operations and so are not in the operation registry, the OpenAPI document, the
 * role matrix or the route-by-route isolation matrix: the dashboard's pages (/app, served by
 * api/routes/dashboard.ts) and its tRPC API (/trpc, mounted as middleware). Their coverage lives in
 * test/web/ (the pages, in a browser) and test/trpc/ (every procedure's roles and tenant isolation).
 */
export const NON_REST_PREFIXES = ['/app', '/trpc'] as const;

const isRest = (path: string) => !NON_REST_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** Every REST method and path the app serves, as `<method> <path>`, read from Express's own routing table. */
export function servedRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
          for (const path of paths.filter(isRest)) found.push(`${method} ${path}`);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      } else if (layer.handle?.routers) {
        for (const router of layer.handle.routers) walk(router.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}
