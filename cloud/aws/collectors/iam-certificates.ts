import { IAMClient, paginateListServerCertificates, paginateListVirtualMFADevices } from '@aws-sdk/client-iam';
import type { ServerCertificate } from '../../../domain/scans/inventory';
import { foldPages, globalPart, type ReadContext } from './reader';

// Two IAM listings that are read on their own so a refusal of one costs only its checks: the server certificates
// IAM stores (paged), and the virtual MFA devices assigned to a user (paged): the root user's serial number, and
// which IAM users have one (a virtual rather than a hardware device).

/** The root user's ARN, in any partition. */
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
    const value = await foldPages(
      paginateListVirtualMFADevices({ client: iam }, { AssignmentStatus: 'Assigned' }),
      { serialNumber: null as string | null, userArns: [] as string[] },
      (into, page) => {
        for (const d of page.VirtualMFADevices ?? []) {
          const arn = d.User?.Arn ?? '';
          if (ROOT_ARN.test(arn)) into.serialNumber ??= d.SerialNumber ?? null;
          else if (arn) into.userArns.push(arn);
        }
        return into;
      },
    );
    return { value };
  },
});
