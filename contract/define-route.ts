/**
 * One route of /api/v0, declared once: its method and path (Express's syntax, relative to
 * /api/v0), the JSON body and query it reads, and what a success answers. The API registers its
 * handler from the declaration and validates the input with it (api/route.ts); the storefront
 * calls it by the declaration (app/api-client/client.server.ts); the API's tests parse every
 * answer with it. ADR 051 says why this and not ts-rest.
 */
import { z } from "zod";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** An answer that is not JSON: a file, a page or a redirect. */
export type NotJson = { notJson: "pdf" | "image" | "html" | "text" | "redirect" };
export const notJson = <K extends NotJson["notJson"]>(kind: K) => ({ notJson: kind });
/** 204: no body, which the storefront's client reads as null. */
export const NoContent = z.null();

export type RouteSpec = {
  method: Method;
  path: `/${string}`;
  /** The JSON body: the API answers a Spanish 400 before the handler when it does not fit. */
  body?: z.ZodTypeAny;
  /** The query string, validated the same way. */
  query?: z.ZodTypeAny;
  /** What a success answers: its schema, or the kind of answer it is when it is not JSON. */
  answer: z.ZodTypeAny | NotJson;
};

/** The names of a path's parameters: "/offers/:id/members/:userId/" → "id" | "userId". */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type ParamsOf<P extends string> = { [K in ParamNames<P>]: string };
export type HasParams<P extends string> = [ParamNames<P>] extends [never] ? false : true;

/** What the declared schemas give the handler (output) and ask of the caller (input). */
export type BodyOf<R extends RouteSpec> = R["body"] extends z.ZodTypeAny ? z.output<R["body"]> : undefined;
export type QueryOf<R extends RouteSpec> = R["query"] extends z.ZodTypeAny ? z.output<R["query"]> : undefined;
export type BodyIn<R extends RouteSpec> = R["body"] extends z.ZodTypeAny ? z.input<R["body"]> : never;
export type QueryIn<R extends RouteSpec> = R["query"] extends z.ZodTypeAny ? z.input<R["query"]> : never;
export type AnswerOf<R extends RouteSpec> = R["answer"] extends z.ZodTypeAny ? z.output<R["answer"]> : never;

export function defineRoute<const R extends RouteSpec>(route: R): R {
  return route;
}

/** `METHOD /path/`: how logs, metrics and tests name a route. */
export const routeName = (route: RouteSpec) => `${route.method} ${route.path}`;

/** The path of a call: each `:name` replaced by its value, encoded. */
export function pathOf(route: RouteSpec, params: Record<string, string> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${routeName(route)}: falta el parámetro ${name}`);
    return encodeURIComponent(value);
  });
}

/** Whether an answer has a schema (JSON) or is described by its kind. */
export const isNotJson = (answer: z.ZodTypeAny | NotJson): answer is NotJson => "notJson" in answer;
