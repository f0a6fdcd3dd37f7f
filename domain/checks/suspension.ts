import { HEALTH_ABUSE_CATEGORY, HEALTH_RISK_CATEGORY } from '../events/forwarding-rules';
import type { AlternateContacts, HealthEvent } from '../scans/inventory';
import { failing, failWhen, onPart } from './helpers';
import type { Check, Severity } from './types';

// Suspension checks: what gets an account suspended, or a suspension notice missed. AWS Trust & Safety writes to
// the alternate contacts and raises AWS Health events; an unanswered abuse or exposed-credentials case ends in
// suspension.

const CONTACTS_DOCS = 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-update-contact-alternate.html';

function contactCheck(kind: keyof AlternateContacts, severity: Severity, purpose: string): Check {
  return {
    id: `suspension.${kind}_contact_missing`,
    service: 'account',
    scenario: 'suspension',
    severity,
    title: `No ${kind} contact`,
    description: `The account has no alternate ${kind} contact: ${purpose} go only to the root e-mail address, which is often an unread inbox.`,
    remediation:
      `In the console open Account > Alternate contacts and set the ${kind} contact to a monitored team address ` +
      '(a distribution list, not a person) and a phone number. With the CLI: aws account put-alternate-contact ' +
      `--alternate-contact-type ${kind.toUpperCase()} --email-address <address> --name <team> --phone-number <phone> --title <title>.`,
    docsUrl: CONTACTS_DOCS,
    // CIS 2.2 asks for current contact details, 2.3 for the security contact in particular.
    controls:
      kind === 'security' ? { 'cis-aws-7.0': ['2.2', '2.3'], 'aws-fsbp': ['Account.1'] } : { 'cis-aws-7.0': ['2.2'] },
    evaluate: onPart('alternateContacts', (contacts) =>
      failWhen(!contacts[kind], {
        resource: `${kind}-contact`,
        detail: `No ${kind} contact is set.`,
      }),
    ),
  };
}

const isOpen = (event: HealthEvent) => event.statusCode.toLowerCase() !== 'closed';

/**
 * The check of the open Health events of one service category (DescribeEvents' `service`: RISK, ABUSE). By the
 * category AWS gives the event, never by words in its type code: AWS_RISK_CREDENTIALS_COMPROMISED and
 * AWS_RISK_IAM_QUARANTINE are risks though their codes do not say EXPOSED, and an event of another service is none.
 */
function healthCheck(category: string): Check['evaluate'] {
  return onPart('health', ({ events }) =>
    failing(
      events
        .filter((event) => isOpen(event) && event.service.toUpperCase() === category)
        .map((event) => ({
          resource: event.arn,
          region: event.region,
          detail: `AWS Health event ${event.eventTypeCode} (${event.service}) opened at ${event.startTime}, status ${event.statusCode}.`,
        })),
    ),
  );
}

/**
 * Why a Health check may be not evaluated, and what still watches: the Health API answers only Business support plans
 * and above, while the forwarder's rule receives the same events on every plan.
 */
const HEALTH_PLANS =
  'The AWS Health API answers only accounts with a Business, Enterprise On-Ramp or Enterprise support plan: on other ' +
  'plans this check is not evaluated, yet these events still reach Sentinel as they happen, on every plan, through ' +
  'the event forwarder (its sentinel-health rule).';

/** The policies AWS attaches to an IAM user when it finds one of its keys exposed (AWSCompromisedKeyQuarantine, V2, V3, ...). */
const QUARANTINE_POLICY = /^AWSCompromisedKeyQuarantine(V\d+)?$/;

export const SUSPENSION_CHECKS: readonly Check[] = [
  contactCheck('security', 'HIGH', 'security notices, including abuse reports and exposed-key warnings,'),
  contactCheck('billing', 'MEDIUM', 'billing notices, including failed payments that lead to suspension,'),
  contactCheck('operations', 'LOW', 'operational notices'),
  {
    id: 'suspension.health_abuse_event',
    service: 'health',
    scenario: 'suspension',
    severity: 'CRITICAL',
    title: 'Open AWS abuse report',
    description:
      'AWS Health has an open abuse event: AWS received a report that resources of the account send spam, attack ' +
      `or scan others, or host malicious content (its ABUSE category). Unanswered reports lead to suspension. ${HEALTH_PLANS}`,
    remediation:
      'Read the event in the AWS Health Dashboard and the message from AWS Trust & Safety, stop the reported ' +
      'activity (isolate or terminate the resources, revoke the credentials used), and reply to the abuse case with what ' +
      'you did before its deadline. In the console: AWS Health Dashboard > Your account health, and Support Center ' +
      'for the case. With the CLI: aws health describe-event-details --event-arns <event> (Business support or higher).',
    docsUrl: 'https://docs.aws.amazon.com/health/latest/ug/what-is-aws-health.html',
    evaluate: healthCheck(HEALTH_ABUSE_CATEGORY),
  },
  {
    id: 'suspension.health_credentials_exposed',
    service: 'health',
    scenario: 'suspension',
    severity: 'CRITICAL',
    title: 'AWS reports compromised or exposed credentials',
    description:
      'AWS Health has an open event of its RISK category: an access key or other credentials of the account were ' +
      'found in a public place such as a code repository, compromised or suspected of being so ' +
      '(AWS_RISK_CREDENTIALS_EXPOSED, AWS_RISK_CREDENTIALS_COMPROMISED, AWS_RISK_CREDENTIALS_EXPOSURE_SUSPECTED, ...), or ' +
      `quarantined by AWS (AWS_RISK_IAM_QUARANTINE). ${HEALTH_PLANS}`,
    remediation:
      'Deactivate and delete the named access key now, replace it where it is legitimately used, remove it ' +
      'from the public location and its history, review CloudTrail for what it was used for, and answer the support case. In the console: IAM > Users > the user > Security credentials. With the CLI: aws iam update-access-key --user-name <user> --access-key-id <key> --status Inactive, then aws iam delete-access-key.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
    evaluate: healthCheck(HEALTH_RISK_CATEGORY),
  },
  {
    id: 'suspension.compromised_key_quarantine',
    service: 'iam',
    scenario: 'suspension',
    severity: 'CRITICAL',
    title: 'AWS quarantined a leaked access key',
    description:
      "An IAM user or role has AWS's quarantine policy attached (AWSCompromisedKeyQuarantine and its later " +
      "versions). AWS attaches it when it finds one of the account's keys in a public place, and opens a support case " +
      'that leads to suspension when left unanswered. Unlike the AWS Health API, this shows on every support plan.',
    remediation:
      'Find the exposed key in the support case or the AWS Health notification, deactivate and delete it, ' +
      'replace it where it is legitimately used, review CloudTrail for what it did (new users, keys, instances in ' +
      'unusual regions), and answer the support case. Detach the quarantine policy only once the key is gone. In the console: IAM > Users > the user > Security credentials, then Permissions to detach AWSCompromisedKeyQuarantine. With the CLI: aws iam delete-access-key --user-name <user> --access-key-id <key>, then aws iam detach-user-policy --user-name <user> --policy-arn <quarantine policy ARN>.',
    docsUrl: 'https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSCompromisedKeyQuarantineV3.html',
    evaluate: onPart('iamPrincipals', ({ users, roles }) =>
      failing(
        [...users, ...roles].flatMap((principal) => {
          const attached = principal.managedPolicies.filter((name) => QUARANTINE_POLICY.test(name));
          if (attached.length === 0) return [];
          return [{ resource: principal.arn, detail: `${principal.arn} has ${attached.join(', ')} attached.` }];
        }),
      ),
    ),
  },
];
