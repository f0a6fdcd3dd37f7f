import type { Unread } from '../scans/inventory';
import { failing, onPart, withUnread } from './helpers';
import type { Check, FailingResource } from './types';

// Where a VPC meets the outside: what new instances answer on their metadata service unless told otherwise, the
// subnets that give every instance a public address, transit gateways that take other accounts' VPCs unreviewed,
// and the endpoints and endpoint services that reach, or are reached from, other accounts.

export const VPC_EDGE_CHECKS: readonly Check[] = [
  {
    id: 'exposure.imds_default_allows_v1',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'New instances accept IMDSv1 by default in a region',
    description:
      "The region's account-level instance metadata defaults do not require IMDSv2, so an instance launched " +
      'without its own metadata options (by a script, an old template, an attacker with stolen keys) answers ' +
      "IMDSv1 requests: a server-side request forgery on it reads its role's credentials.",
    remediation:
      'In the EC2 console of the region open the Dashboard, Account attributes > Data protection and security > IMDS ' +
      'defaults > Manage, set Metadata version to V2 only (token required) and save; or run `aws ec2 ' +
      'modify-instance-metadata-defaults --region <region> --http-tokens required --http-put-response-hop-limit 2`. ' +
      'Repeat it in every enabled region; existing instances keep their own settings (see exposure.imdsv1_allowed).',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-IMDS-new-instances.html',
    prowler: ['ec2_instance_account_imdsv2_enabled'],
    evaluate: onPart('instanceMetadataDefaults', ({ regions }) =>
      failing(
        regions
          .filter((r) => r.httpTokens !== 'required')
          .map(({ region, httpTokens }) => ({
            resource: 'instance-metadata-defaults',
            region,
            detail:
              httpTokens === null
                ? `No instance metadata default is set in ${region}: new instances accept IMDSv1 unless launched otherwise.`
                : `The instance metadata default in ${region} is HttpTokens ${httpTokens}: new instances accept IMDSv1.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.subnet_assigns_public_ip',
    service: 'vpc',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Subnet gives every instance a public address',
    description:
      'A subnet has "auto-assign public IPv4 address" on (MapPublicIpOnLaunch): every instance launched in it gets a ' +
      'public address unless whoever launches it says otherwise, so a database or an internal tool lands on the ' +
      'internet by default. The default subnets of default VPCs are created this way.',
    remediation:
      'In the VPC console open Subnets, select the subnet, Actions > Edit subnet settings and clear "Enable ' +
      'auto-assign public IPv4 address"; or run `aws ec2 modify-subnet-attribute --subnet-id <id> ' +
      '--no-map-public-ip-on-launch`. Give a public address only to instances that need one, at launch ' +
      '(--associate-public-ip-address) or with an Elastic IP, and delete default VPCs you do not use.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/subnet-public-ip.html',
    prowler: ['vpc_subnet_no_public_ip_by_default'],
    controls: { 'aws-fsbp': ['EC2.15'] },
    evaluate: onPart('publicIpSubnets', ({ subnets }) =>
      failing(
        subnets.map((s) => ({
          resource: s.id,
          region: s.region,
          detail: `${s.defaultForAz ? 'Default subnet' : 'Subnet'} ${s.id} of ${s.vpcId} in ${s.region} assigns a public IPv4 address to every instance launched in it.`,
        })),
      ),
    ),
  },
  {
    id: 'exposure.transit_gateway_auto_accepts',
    service: 'vpc',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Transit gateway accepts shared attachments automatically',
    description:
      'A transit gateway accepts, without review, the VPC attachments requested by the accounts it is shared with ' +
      '(AutoAcceptSharedAttachments): any of them, or whoever compromises one, joins its network to yours and can ' +
      'route to every VPC attached to it.',
    remediation:
      'In the VPC console open Transit gateways, select it, Actions > Modify transit gateway and clear "Auto accept ' +
      'shared attachments"; or run `aws ec2 modify-transit-gateway --transit-gateway-id <id> --options ' +
      'AutoAcceptSharedAttachments=disable`. Then review each attachment request and accept it with `aws ec2 ' +
      'accept-transit-gateway-vpc-attachment`.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/tgw/tgw-transit-gateways.html',
    prowler: ['ec2_transitgateway_auto_accept_vpc_attachments'],
    controls: { 'aws-fsbp': ['EC2.23'] },
    evaluate: onPart('transitGateways', ({ gateways }) =>
      failing(
        gateways
          .filter((g) => g.autoAcceptSharedAttachments)
          .map((g) => ({
            resource: g.id,
            region: g.region,
            detail: `Transit gateway ${g.id} in ${g.region} automatically accepts attachments shared with it.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.vpc_endpoint_policy_open',
    service: 'vpc',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'VPC endpoint lets any principal through',
    description:
      'A VPC endpoint\'s policy allows everyone (Principal "*" with no condition that narrows it to known accounts), ' +
      "or names another account: code in the VPC can use it with credentials of any account, an attacker's " +
      'included, to move data out to resources outside yours. AWS gives new endpoints such a full-access policy.',
    remediation:
      'In the VPC console open Endpoints, select the endpoint, Actions > Manage policy and replace the full-access ' +
      'policy with one that allows only your accounts or organization (a condition on aws:PrincipalOrgID or ' +
      'aws:PrincipalAccount) and, for S3, only your buckets (aws:ResourceOrgID); or run `aws ec2 modify-vpc-endpoint ' +
      '--vpc-endpoint-id <id> --policy-document file://policy.json`.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/privatelink/vpc-endpoints-access.html',
    prowler: ['vpc_endpoint_connections_trust_boundaries'],
    evaluate: onPart('vpcEndpoints', ({ endpoints }) => {
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const e of endpoints) {
        if (e.beyondAccount === null)
          unread.push({
            kind: 'resource',
            scope: e.id,
            reason: 'Its policy is not a policy document Sentinel can read: who it lets through is unknown.',
          });
        else if (e.beyondAccount.length > 0)
          resources.push({
            resource: e.id,
            region: e.region,
            detail: `VPC endpoint ${e.id} (${e.serviceName}) of ${e.vpcId} in ${e.region}: ${e.beyondAccount.join('; ')}.`,
          });
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'exposure.endpoint_service_open',
    service: 'vpc',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'VPC endpoint service open to other accounts',
    description:
      'An endpoint service the account provides (AWS PrivateLink) allows every AWS account ("*") or other accounts ' +
      'to create endpoints to it: whoever is allowed reaches the load balancer behind it, and the application, from ' +
      "their own VPC. With acceptance off, they need nobody's approval.",
    remediation:
      'In the VPC console open Endpoint services, select the service, the Allow principals tab, and remove "*" and ' +
      'the accounts that should not connect; or run `aws ec2 modify-vpc-endpoint-service-permissions --service-id ' +
      '<id> --remove-allowed-principals "*"`. Turn on acceptance (`aws ec2 modify-vpc-endpoint-service-configuration ' +
      '--service-id <id> --acceptance-required`) and review the endpoint connections.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/privatelink/configure-endpoint-service.html',
    prowler: ['vpc_endpoint_services_allowed_principals_trust_boundaries'],
    evaluate: onPart('vpcEndpoints', ({ services }) =>
      failing(
        services
          .filter((service) => service.outsidePrincipals.length > 0)
          .map((service) => ({
            resource: service.id,
            region: service.region,
            detail: `Endpoint service ${service.id} (${service.serviceName}) in ${service.region} allows ${service.outsidePrincipals
              .map((p) => (p === '*' ? 'every AWS account' : p))
              .join(', ')} to connect.`,
          })),
      ),
    ),
  },
];
