import { z } from 'zod';
import type { AppDeps } from '../../core/deps';
import { readRawJsonBody } from '../middleware/body';
import { PUBLIC } from '../openapi/registry';
import {
  checkoutInput,
  checkoutOutput,
  plansOutput,
  portalOutput,
  portalQuery,
  stripeWebhookOutput,
} from '../../core/schemas/billing';
import {
  createCheckoutSession,
  createPortalSession,
  listPlans,
  requireBillingConfigured,
} from '../../core/billing/billing';
import { receiveStripeWebhook } from '../../core/billing/stripe-events';
import { endpoint } from './operation';

// Checked by the service on the exact bytes received, not by zod.
const stripeEvent = z
  .looseObject({})
  .meta({ description: 'A Stripe event, exactly as Stripe sent it (the signature covers these bytes)' });

/** Without Stripe keys checkout and portal answer 503 before their input is looked at. */
const billingConfigured = ({ deps }: { deps: AppDeps }) => requireBillingConfigured(deps.config);

export const billingOperations = [
  endpoint({
    operationId: 'listPlans',
    method: 'get',
    path: '/billing/plans',
    tag: 'Billing',
    access: PUBLIC,
    database: false,
    summary: 'The plan catalogue',
    success: { status: 200, description: 'Every plan', schema: plansOutput },
    errors: [],
    handler: ({ deps }) => listPlans(deps.config),
  }),
  endpoint({
    operationId: 'receiveStripeWebhook',
    method: 'post',
    path: '/webhooks/stripe',
    tag: 'Billing',
    access: PUBLIC,
    beforeJsonParser: true,
    summary: 'Stripe webhook endpoint',
    description:
      'The `Stripe-Signature` header, checked against the exact bytes received (at most 1 MB, nested at most 64 ' +
      'deep), is the proof. ' +
      'Events are applied once: a redelivery answers `duplicate: true`. 503 without `STRIPE_WEBHOOK_SECRET`.',
    // Stripe signs the exact bytes it sent: the body is read raw (a Buffer), before the JSON parser would.
    body: stripeEvent,
    rawInput: true,
    before: async ({ req }) => {
      await readRawJsonBody(req);
    },
    headers: { 'Stripe-Signature': z.string().meta({ description: "Stripe's signature of the body" }) },
    success: { status: 200, description: 'Received', schema: stripeWebhookOutput },
    errors: [
      'invalid_signature',
      'invalid_json',
      'unsupported_content_type',
      'body_too_large',
      'body_too_deep',
      'billing_not_configured',
      'temporal_unavailable',
    ],
    handler: ({ deps, body, req }) => receiveStripeWebhook(deps, body, req.headers['stripe-signature']),
  }),
  endpoint({
    operationId: 'startCheckout',
    method: 'post',
    path: '/billing/checkout',
    tag: 'Billing',
    access: 'owner',
    summary: 'Open a Stripe Checkout session for a plan',
    description:
      '503 without Stripe keys (before the body is read). A tenant with a live subscription gets 409: plan ' +
      'changes go through the portal.',
    body: checkoutInput,
    before: billingConfigured,
    success: { status: 200, description: 'Where to send the user', schema: checkoutOutput },
    errors: ['billing_not_configured', 'conflict', 'upstream_failed'],
    handler: ({ deps, caller, body }) => createCheckoutSession(deps, caller, body),
  }),
  endpoint({
    operationId: 'openBillingPortal',
    method: 'get',
    path: '/billing/portal',
    tag: 'Billing',
    access: 'owner',
    summary: 'Open the Stripe Billing Portal',
    description: '503 without Stripe keys; 409 before any checkout. Unknown query parameters are 400.',
    query: portalQuery,
    before: billingConfigured,
    success: { status: 200, description: 'Where to send the user', schema: portalOutput },
    errors: ['billing_not_configured', 'no_billing_customer', 'upstream_failed'],
    handler: ({ deps, caller, query }) => createPortalSession(deps, caller, query.return_url),
  }),
];
