import { ACMClient, KeyAlgorithm, paginateListCertificates } from '@aws-sdk/client-acm';
import type { AcmCertificate } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// ACM certificates, region by region: ListCertificates answers each one's key algorithm, expiry and whether a
// service uses it, so one call per page reads them all. By default it lists RSA 1024 and 2048 certificates only:
// every key type is asked for, the weak ones first of all.

const EVERY_KEY_TYPE = Object.values(KeyAlgorithm);

export const acmCertificatesPart = regionalPart({
  part: 'acmCertificates',
  async read({ session }: ReadContext, region: string): Promise<AcmCertificate[]> {
    const acm = session.client((config) => new ACMClient(config), region);
    return foldPages(
      paginateListCertificates({ client: acm }, { Includes: { keyTypes: EVERY_KEY_TYPE } }),
      [] as AcmCertificate[],
      (into, page) => {
        for (const c of page.CertificateSummaryList ?? []) {
          if (!c.CertificateArn) continue;
          into.push({
            arn: c.CertificateArn,
            domainName: c.DomainName ?? '',
            region,
            keyAlgorithm: c.KeyAlgorithm ?? '',
            notAfter: c.NotAfter?.toISOString() ?? null,
            inUse: c.InUse ?? false,
          });
        }
        return into;
      },
    );
  },
  assemble: (slices) => ({ certificates: slices.flat() }),
});
