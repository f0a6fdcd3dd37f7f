import type { IamPrincipals, IamUser } from '../scans/inventory';
import { onParts } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Bedrock API keys whose IAM user holds far more than Bedrock: a key is a bearer token for everything its user may
// do, so a leaked key of an administrator is a leaked administrator.

/** The AWS managed policy that grants every Bedrock action: Prowler's "full service access". */
const BEDROCK_FULL_ACCESS = 'AmazonBedrockFullAccess';

/** Why the user's permissions go beyond what a Bedrock key needs; null when they do not. */
function excessOf(user: IamUser, principals: IamPrincipals): string | null {
  if (user.adminAccess || user.fullAdminPolicies.length > 0) return 'administrator access';
  const escalating = principals.riskyPolicies.find(
    (p) =>
      p.escalationPaths.length > 0 &&
      (p.kind === 'inline' ? p.owner === user.arn : user.directPolicies.includes(p.name)),
  );
  if (escalating) return `privilege escalation through ${escalating.name}`;
  if (user.managedPolicies.includes(BEDROCK_FULL_ACCESS)) return `every Bedrock action through ${BEDROCK_FULL_ACCESS}`;
  return null;
}

export const BEDROCK_KEY_CHECKS: readonly Check[] = [
  {
    id: 'iam.bedrock_api_key_admin_user',
    service: 'bedrock',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Bedrock API key of a user with administrative privileges',
    description:
      'An active Bedrock API key belongs to an IAM user who is an administrator, can escalate to one, or may call ' +
      'every Bedrock action: the key authenticates as the user, so whoever finds it in a script, a notebook or a ' +
      'chat gets all of that, not only model invocation.',
    remediation:
      'Give Bedrock API keys to a user that holds only the Bedrock actions its application calls ' +
      '(AmazonBedrockLimitedAccess or narrower): create one (IAM console > Users > Create user, attach the narrow ' +
      'policy, then Security credentials > API keys for Amazon Bedrock > Generate), move the application to its key, ' +
      'and delete the old one (aws iam delete-service-specific-credential --user-name USER ' +
      '--service-specific-credential-id KEY_ID); or remove the administrative policies from the user (aws iam ' +
      'detach-user-policy --user-name USER --policy-arn ARN, aws iam delete-user-policy).',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html',
    prowler: ['bedrock_api_key_no_administrative_privileges'],
    evaluate: onParts(['bedrockApiKeys', 'iamPrincipals'], ({ keys }, principals) => {
      const users = new Map(principals.users.map((u) => [u.name, u]));
      return bySetting(
        keys.filter((k) => k.status === 'Active').map((k) => ({ ...k, region: 'global' })),
        {
          resource: (k) => k.id,
          fails: (k) => {
            const user = users.get(k.userName);
            return user ? excessOf(user, principals) !== null : null;
          },
          detail: (k) => {
            const user = users.get(k.userName) as IamUser;
            return `The Bedrock API key ${k.id} of IAM user ${k.userName} carries ${excessOf(user, principals)}.`;
          },
          unreadReason: "IAM did not list the key's user, whose policies say what the key may do.",
        },
      );
    }),
  },
];
