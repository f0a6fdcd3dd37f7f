// One error class for everything the API reports on purpose. The Express error handler (and the tRPC
// formatter) turn it into the spec's `{ error, code }` body; anything else becomes a bare 500.

export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  unsupported_content_type: 400,
  body_too_large: 400,
  body_too_deep: 400,
  invalid_cursor: 400,
  batch_too_large: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_refresh_token: 401,
  forbidden: 403,
  plan_limit_exceeded: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  email_taken: 409,
  account_exists: 409,
  invalid_state: 409,
  role_assumption_failed: 422,
  invalid_input: 400,
  invalid_oauth_state: 400,
  invalid_invitation: 400,
  invalid_reset_token: 400,
  invalid_verification_token: 400,
  invalid_signature: 400,
  plan_feature_unavailable: 403,
  link_expired: 403,
  link_invalid: 403,
  no_billing_customer: 409,
  upstream_failed: 502,
  slack_not_configured: 503,
  billing_not_configured: 503,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
  database_timeout: 503,
  temporal_unavailable: 503,
  verification_unavailable: 503,
  export_failed: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: FieldProblem[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
