import { z } from 'zod';

// What the REST routes take from the path. Like the routes, any string is looked up in the caller's tenant and
// an id that matches nothing is a 404 (so another tenant's id is a 404 too); only the length is bounded here.
const pathId = z.string().min(1, 'is required').max(128, 'must be at most 128 characters');

export const accountRef = z.strictObject({ account_id: pathId });
export const signalRef = z.strictObject({ account_id: pathId, signal_id: pathId });
export const ruleRef = z.strictObject({ rule_id: pathId });
export const alertRef = z.strictObject({ alert_id: pathId });
export const userRef = z.strictObject({ user_id: pathId });
export const teamRef = z.strictObject({ team_id: pathId });
export const orgRef = z.strictObject({ org_id: pathId });
export const trustedPrincipalRef = z.strictObject({ trusted_principal_id: pathId });
export const detectionRef = z.strictObject({ detection_id: pathId });
