import { IAMClient, paginateListServerCertificates, paginateListVirtualMFADevices } from '@aws-sdk/client-iam';
import type { ServerCertificate } from '../../../domain/scans/inventory';
import { foldPages, globalPart, type ReadContext } from './reader';

// Two IAM listings that are read on their own so a refusal of one costs only its checks: the server certificates
// IAM stores (paged), and the virtual MFA devices assigned to a user (paged), of which only the root user's is kept.

/** The root user's ARN, in any partition: the only user a virtual MFA device is kept for. */
const ROOT_ARN = /^arn:aws[\w-]*:iam::\d{12}:root$/;

export const serverCertificatesPart = globalPart({
  part: 'serverCertificates',
  async read({ session }: ReadContext) {
    const iam = session.client((config) => new IAMClient(config));
    const certificates = await foldPages(
      paginateListServerCertificates({ client: iam }, {}),
      [] as ServerCertificate[],
      (into, page) => {
        for (const c of page.ServerCertificateMetadataList ?? []) {
          // A certificate without an expiration is not one AWS returns; left out rather than guessed.
          if (c.Expiration)
            into.push({ name: c.ServerCertificateName ?? '', arn: c.Arn ?? '', expiresAt: c.Expiration.toISOString() });
        }
        return into;
      },
    );
    return { value: { certificates } };
  },
});

export const rootVirtualMfaPart = globalPart({
  part: 'rootVirtualMfa',
  async read({ session }: ReadContext) {
    const iam = session.client((config) => new IAMClient(config));
    const serialNumber = await foldPages(
      paginateListVirtualMFADevices({ client: iam }, { AssignmentStatus: 'Assigned' }),
      null as string | null,
      (found, page) =>
        found ?? page.VirtualMFADevices?.find((d) => ROOT_ARN.test(d.User?.Arn ?? ''))?.SerialNumber ?? null,
    );
    return { value: { serialNumber } };
  },
});
