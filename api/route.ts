import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import type { BodyOf, ParamsOf, QueryOf, RouteSpec } from "#contract/define-route";
import { handle, parseInput } from "#api/http";

/** What a handler gets from its declaration: the body and query it declares, parsed, and the path's parameters. */
export type RouteInput<R extends RouteSpec> = { body: BodyOf<R>; query: QueryOf<R>; params: ParamsOf<R["path"]> };
export type RouteHandler<R extends RouteSpec> = (req: Request, res: Response, input: RouteInput<R>, next: NextFunction) => Promise<unknown>;

export type RouteOptions = {
  /** Middleware that runs before the input is read: rate limits, a body parser of its own (uploads, webhooks). */
  before?: RequestHandler[];
  /**
   * The answer to a body that does not fit, when it is not the usual Spanish 400 {detail, errors}
   * (validate answers in its own shape, so the storefront shows each error_text).
   */
  invalidBody?: (issues: z.ZodIssue[], res: Response) => void;
};

const registered = new Set<RouteSpec>();
/** The declarations some router has registered: a test checks that none of the contract's is missing. */
export const registeredRoutes = (): ReadonlySet<RouteSpec> => registered;

/**
 * Registers a declared route on a router: its method and path come from the declaration, its
 * body and query are validated with the declaration's schemas before the handler runs. The
 * handler answers through Express's `res`, as any Express handler (files, redirects, pages).
 */
export function on<R extends RouteSpec>(router: Router, route: R, handler: RouteHandler<R>): void;
export function on<R extends RouteSpec>(router: Router, route: R, options: RouteOptions, handler: RouteHandler<R>): void;
export function on<R extends RouteSpec>(router: Router, route: R, ...args: [RouteHandler<R>] | [RouteOptions, RouteHandler<R>]): void {
  const [options, handler] = args.length === 2 ? args : [{} as RouteOptions, args[0]];
  registered.add(route);
  const method = route.method.toLowerCase() as Lowercase<R["method"]>;
  router[method](
    route.path,
    ...(options.before ?? []),
    handle(async (req, res, next) => {
      let body: unknown;
      if (route.body && options.invalidBody) {
        // Parsed once: the body's own answer when it does not fit, its data when it does.
        const parsed = route.body.safeParse(req.body);
        if (!parsed.success) return options.invalidBody(parsed.error.issues, res);
        body = parsed.data;
      } else if (route.body) {
        body = parseInput(route.body, req.body);
      }
      const input = {
        body,
        query: route.query ? parseInput(route.query, req.query) : undefined,
        params: req.params,
      } as RouteInput<R>;
      return handler(req, res, input, next);
    }),
  );
}
