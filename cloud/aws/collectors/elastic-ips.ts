import { DescribeAddressesCommand } from '@aws-sdk/client-ec2';
import type { ElasticIp } from '../../../domain/scans/inventory';
import { ec2In } from './ec2';
import { type ReadContext, regionalPart } from './reader';

// The account's Elastic IP addresses, region by region (DescribeAddresses, which answers every address at once): an
// address a DNS record names is the account's while it holds it, associated or not. With the instances' public
// addresses (the instances part), they are what tells a record pointing at the account from a dangling one.

export const elasticIpsPart = regionalPart({
  part: 'elasticIps',
  async read({ session }: ReadContext, region: string): Promise<ElasticIp[]> {
    const { Addresses = [] } = await ec2In(session, region).send(new DescribeAddressesCommand({}));
    return Addresses.flatMap((a) => (a.PublicIp ? [{ publicIp: a.PublicIp, region }] : []));
  },
  assemble: (slices) => ({ addresses: slices.flat() }),
});
