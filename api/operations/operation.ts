import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AppDeps, Caller } from '../../core/deps';
import type { Access, Operation, PUBLIC } from '../openapi/registry';

/** The names in braces of a path: `account_id | signal_id` for `/accounts/{account_id}/signals/{signal_id}/accept`. */
type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler is called with, once the caller is authenticated, their role checked and the input parsed. */
export interface HandlerInput<P extends string, A extends Access, B, Q, Raw extends boolean> {
  /** The service dependencies, with the request's logger (its lines carry the request id, tenant and user). */
  deps: AppDeps;
  /** The authenticated caller; none on public operations. */
  caller: A extends typeof PUBLIC ? undefined : Caller;
  /** The path parameters, by the names the path gives them. */
  params: Record<PathParamNames<P>, string>;
  /** The body parsed with the declared schema; with `rawInput`, as received. */
  body: Raw extends true ? unknown : Parsed<B>;
  /** The query parsed with the declared schema; with `rawInput`, as received. */
  query: Raw extends true ? Request['query'] : Parsed<Q>;
  /** For what the inputs do not carry: the client address, a header. */
  req: Request;
}

/**
 * An answer the handler writes itself: a stream, CSV, an HTML page, or a status other than the declared success.
 * Everything that can fail before the first byte should be done before returning it, so it reaches the error handler.
 */
export class CustomAnswer {
  constructor(readonly write: (res: Response) => unknown) {}
}

export const respond = (write: (res: Response) => unknown) => new CustomAnswer(write);

/**
 * One operation of the API: what the OpenAPI document says about it and the handler that serves it. The REST
 * route, the document and the tRPC procedure's role all come from this one declaration.
 */
export interface EndpointOf<
  P extends string,
  A extends Access,
  B extends z.ZodType | undefined,
  Q extends z.ZodObject | undefined,
  Raw extends boolean,
> extends Operation {
  path: P;
  access: A;
  body?: B;
  query?: Q;
  /**
   * The handler checks its input itself, in an order of its own (a signature over the exact bytes, a
   * single-use state before anything else): the declared body or query only documents it.
   */
  rawInput?: Raw;
  /** Runs after the access check and before the input is parsed (a configuration check, a raw body reader). */
  before?(input: { deps: AppDeps; req: Request; res: Response }): void | Promise<void>;
  /**
   * Answers the operation: the JSON body of the declared success status (nothing when it has no body), or
   * `respond(...)` to write the answer itself.
   */
  handler(input: HandlerInput<P, A, B, Q, Raw>): unknown;
}

export type Endpoint = EndpointOf<string, Access, z.ZodType | undefined, z.ZodObject | undefined, boolean>;

/** Declares an operation; the types of the handler's input follow from its path, access and schemas. */
export function endpoint<
  const P extends string,
  A extends Access,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  Raw extends boolean = false,
>(declaration: EndpointOf<P, A, B, Q, Raw>): Endpoint {
  return declaration;
}
