/**
 * The most procedures one batched tRPC request may call. Each is a full request's work (a sign-up, a scan), so an
 * uncapped batch would multiply every per-request limit; the dashboard's client splits its batches at this size.
 */
export const TRPC_MAX_BATCH = 10;
