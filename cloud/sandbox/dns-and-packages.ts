import type { CodeArtifactPackage, Collected, Unread } from '../../domain/scans/inventory';
import type { WorkloadSeed } from './workloads';

// The sandbox account's CodeArtifact packages, registered domains, DNS records and Elastic IPs, set up well, plus the
// issues each account's seed picks: an internal package that still takes versions from npmjs, a domain without its
// transfer lock, a record left pointing at a released address. Addresses are made up from the account id, in
// 3.0.0.0/8 as the sandbox's instances' are.

/** Each issue is drawn on its own, so that accounts differ. */
const ISSUE_ODDS = 0.4;

const ok = <T>(value: T, unread: Unread[] = []): Collected<T> =>
  unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };

const addressOf = (random: () => number) => `3.${[0, 0, 0].map(() => Math.floor(random() * 250)).join('.')}`;

export function sandboxDnsAndPackages({ awsAccountId, company, regions, random, neglect, regional }: WorkloadSeed) {
  const has = (issue: string) => random(`dns-packages:${issue}`)() < ISSUE_ODDS * neglect;
  const domain = `${company}.com`;
  const zone = { zoneId: `Z0${awsAccountId.slice(-8)}`, zoneName: `${domain}.` };
  const addresses = random('dns-packages:addresses');
  const [home] = regions;
  const elasticIps = home ? [{ publicIp: addressOf(addresses), region: home }] : [];
  const records = [
    ...elasticIps.map((ip) => ({ ...zone, name: `www.${domain}.`, addresses: [ip.publicIp] })),
    { ...zone, name: `vpn.${domain}.`, addresses: ['10.20.0.4'] },
  ];
  if (has('dangling_record')) records.push({ ...zone, name: `old-api.${domain}.`, addresses: [addressOf(addresses)] });
  const repository = home && `arn:aws:codeartifact:${home}:${awsAccountId}:repository/${company}/npm-store`;
  const pkg = (name: string, latestOrigin: CodeArtifactPackage['latestOrigin']): CodeArtifactPackage[] =>
    home && repository
      ? [
          {
            arn: `${repository}/${name}`,
            domain: company,
            repository: 'npm-store',
            format: 'npm',
            namespace: null,
            name,
            region: home,
            latestOrigin,
          },
        ]
      : [];
  return {
    codeartifactPackages: ok(
      {
        packages: [
          ...pkg('react', 'EXTERNAL'),
          ...(has('package_upstream') ? pkg(`${company}-design-system`, 'INTERNAL') : []),
        ],
      },
      regional('CodeArtifact ListRepositories'),
    ),
    registeredDomains: ok({
      domains: [
        { name: domain, transferLock: true },
        { name: `${company}-status.net`, transferLock: !has('transfer_lock') },
      ],
    }),
    hostedZoneRecords: ok({ records }),
    elasticIps: ok({ addresses: elasticIps }, regional('EC2 DescribeAddresses')),
  };
}
