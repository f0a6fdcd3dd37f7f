import { GetEbsEncryptionByDefaultCommand } from '@aws-sdk/client-ec2';
import { ec2In } from './ec2';
import { type ReadContext, regionalPart } from './reader';

// EBS encryption by default is a setting of each region: one call per region says whether new volumes (and the
// snapshots taken of them) are encrypted whatever their creator asks.

export const ebsEncryptionByDefaultPart = regionalPart({
  part: 'ebsEncryptionByDefault',
  async read({ session }: ReadContext, region: string) {
    const { EbsEncryptionByDefault } = await ec2In(session, region).send(new GetEbsEncryptionByDefaultCommand({}));
    return { region, enabled: EbsEncryptionByDefault === true };
  },
  assemble: (slices) => ({ regions: slices }),
});
