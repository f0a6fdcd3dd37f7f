import { PUBLIC } from '../openapi/registry';
import { messageBody } from '../../core/schemas/common';
import { recipientLinkQuery } from '../../core/schemas/email';
import { confirmAlertRecipient, unsubscribeAlertRecipient } from '../../core/alerts/alert-recipients';
import { endpoint } from './operation';

// The links in alert e-mails, for people who may have no account: the signed token in the query is the proof.
// Both take any body and ignore it (before the JSON parser): RFC 8058 one-click unsubscribe POSTs the form body
// `List-Unsubscribe=One-Click`. The page they open (/app/email-preferences) asks before calling them, since
// mail scanners follow every link in a message.

export const emailLinkOperations = [
  endpoint({
    operationId: 'confirmAlertRecipient',
    method: 'post',
    path: '/email/confirm',
    tag: 'Alert rules',
    access: PUBLIC,
    beforeJsonParser: true,
    summary: "Confirm that an address wants a tenant's alert e-mails",
    description:
      'From the one confirmation e-mail an address gets before any alert (valid 7 days). Also subscribes an ' +
      'address that had unsubscribed again.',
    query: recipientLinkQuery,
    success: { status: 200, description: 'Confirmed', schema: messageBody },
    errors: ['link_invalid', 'link_expired'],
    handler: ({ deps, query }) => confirmAlertRecipient(deps, query.token),
  }),
  endpoint({
    operationId: 'unsubscribeAlertRecipient',
    method: 'post',
    path: '/email/unsubscribe',
    tag: 'Alert rules',
    access: PUBLIC,
    beforeJsonParser: true,
    summary: "Stop a tenant's alert e-mails to an address (one-click)",
    description:
      'The `List-Unsubscribe` target of every alert e-mail (RFC 8058); the link does not expire. Idempotent.',
    query: recipientLinkQuery,
    success: { status: 200, description: 'Unsubscribed', schema: messageBody },
    errors: ['link_invalid'],
    handler: ({ deps, query }) => unsubscribeAlertRecipient(deps, query.token),
  }),
];
