import type { AcmCertificate } from '../scans/inventory';
import { daysSince, onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// ACM certificates in use (associated with a load balancer, a distribution, an API): one that expires within
// EXPIRY_WINDOW_DAYS (or has expired) and one whose key is too weak. Certificates nothing uses are left alone, as
// Prowler does by default: they serve no one.

/** Prowler's default threshold (days_to_expire_threshold). */
export const EXPIRY_WINDOW_DAYS = 7;

const ACM_DOCS = 'https://docs.aws.amazon.com/acm/latest/userguide/';

/** Key algorithms too weak to protect a TLS connection: RSA under 2,048 bits and curves under 256 bits. */
const WEAK_KEYS = new Set(['RSA_1024', 'EC_prime192v1', 'EC_secp192r1', 'P_192']);
/** ACM names an algorithm RSA_2048 or RSA-2048 depending on the answer: one spelling for both. */
export const weakKey = (algorithm: string) => WEAK_KEYS.has(algorithm.replace(/-/g, '_'));

const named = (c: AcmCertificate) => `ACM certificate for ${c.domainName} in ${c.region}`;

export const ACM_CHECKS: readonly Check[] = [
  {
    id: 'exposure.acm_certificate_expiring',
    service: 'acm',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ACM certificate in use expiring within 7 days',
    description:
      `A certificate that a load balancer, distribution or API serves expires within ${EXPIRY_WINDOW_DAYS} days, or ` +
      'has expired: browsers and clients then refuse the connection (an outage), or users learn to click through ' +
      'certificate warnings. ACM renews the certificates it issues only while their validation still holds; it ' +
      'never renews an imported one.',
    remediation:
      'For a certificate ACM issued, fix its validation (the DNS record ACM asked for) so ACM renews it, or request a ' +
      'new one; for an imported one, import the renewed certificate over it (same ARN). Console: Certificate Manager ' +
      '> List certificates > the certificate > Renewal status (or Reimport). CLI: aws acm describe-certificate ' +
      '--certificate-arn ARN (RenewalSummary), aws acm import-certificate --certificate-arn ARN --certificate ' +
      'fileb://cert.pem --private-key fileb://key.pem --certificate-chain fileb://chain.pem, or aws acm ' +
      'request-certificate --domain-name NAME --validation-method DNS.',
    docsUrl: `${ACM_DOCS}managed-renewal.html`,
    prowler: ['acm_certificates_expiration_check'],
    evaluate: onPart('acmCertificates', ({ certificates }, ctx) =>
      bySetting(
        certificates.filter((c) => c.inUse),
        {
          resource: (c) => c.arn,
          // Whole days left, as Prowler counts them: one with 7 days and some hours left fails.
          fails: (c) =>
            c.notAfter === null ? null : Math.floor(-daysSince(c.notAfter, ctx.now)) <= EXPIRY_WINDOW_DAYS,
          detail: (c) =>
            daysSince(c.notAfter ?? ctx.now, ctx.now) > 0
              ? `${named(c)} expired at ${c.notAfter}, and is still in use.`
              : `${named(c)} expires at ${c.notAfter}.`,
          unreadReason: 'ACM did not report when the certificate expires (NotAfter).',
        },
      ),
    ),
  },
  {
    id: 'exposure.acm_certificate_weak_key',
    service: 'acm',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ACM certificate in use with a weak key',
    description:
      'A certificate that a load balancer, distribution or API serves has an RSA key under 2,048 bits or an ' +
      'elliptic curve key under 256 bits: such keys can be factored or broken with resources within reach, which ' +
      'lets an attacker impersonate the site and read its traffic. Browsers reject RSA keys under 2,048 bits.',
    remediation:
      'Replace the certificate with one of an RSA 2048 (or larger) or EC P-256 (or larger) key, then delete the weak ' +
      'one. Console: Certificate Manager > Request (Key algorithm: RSA 2048 or ECDSA P 256), then the load balancer ' +
      "listener's (or distribution's) certificate > Edit. CLI: aws acm request-certificate --domain-name NAME " +
      '--validation-method DNS --key-algorithm EC_prime256v1, then aws elbv2 modify-listener --listener-arn ARN ' +
      '--certificates CertificateArn=NEW_ARN (or import a new certificate: aws acm import-certificate).',
    docsUrl: `${ACM_DOCS}acm-certificate.html`,
    controls: { 'aws-fsbp': ['ACM.2'] },
    prowler: ['acm_certificates_with_secure_key_algorithms'],
    evaluate: onPart('acmCertificates', ({ certificates }) =>
      bySetting(
        certificates.filter((c) => c.inUse),
        {
          resource: (c) => c.arn,
          fails: (c) => weakKey(c.keyAlgorithm),
          detail: (c) => `${named(c)} has a ${c.keyAlgorithm} key.`,
        },
      ),
    ),
  },
];
