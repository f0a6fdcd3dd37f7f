import type { AwsRequest, CannedAnswer } from './aws';

// moto answers some list operations (Lambda ListFunctions, ECS ListTaskDefinitions, API Gateway GetRestApis) in a
// single page whatever their size, where AWS pages them. This rewrite of moto's answer splits it in two pages, with
// the operation's own token fields, so a collector's paging is exercised: the first request (no token) gets the
// first half and a token, the request with that token gets the rest.

const TOKEN = 'front-page-2';

export interface Paged {
  /** The list operation's requests. */
  matches: (request: AwsRequest) => boolean;
  /** The field of the answer that holds the items (Functions, taskDefinitionArns, item). */
  items: string;
  /** The request's token: a query parameter (REST) or a field of the JSON body. */
  tokenIn: { query: string } | { body: string };
  /** The answer's field for the next token (NextMarker, nextToken, position). */
  tokenOut: string;
}

function tokenOf(request: AwsRequest, tokenIn: Paged['tokenIn']): string | undefined {
  if ('query' in tokenIn) return new URLSearchParams(request.query).get(tokenIn.query) ?? undefined;
  try {
    return (JSON.parse(request.body || '{}') as Record<string, string | undefined>)[tokenIn.body];
  } catch {
    return undefined;
  }
}

/** A front rewrite that splits the matching answers in two pages; undefined for any other. */
export function inTwoPages(...paged: Paged[]) {
  return (request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined => {
    const list = paged.find((p) => p.matches(request));
    if (!list || answer.status !== 200) return undefined;
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    const items = (body[list.items] as unknown[] | undefined) ?? [];
    const half = Math.ceil(items.length / 2);
    const second = tokenOf(request, list.tokenIn) === TOKEN;
    const page = second
      ? { ...body, [list.items]: items.slice(half), [list.tokenOut]: undefined }
      : { ...body, [list.items]: items.slice(0, half), [list.tokenOut]: items.length > half ? TOKEN : undefined };
    return { ...answer, body: JSON.stringify(page) };
  };
}
