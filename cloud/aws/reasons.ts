import type { RoleTarget } from '../../domain/onboarding/role';
import { customerRoleArn } from './credentials';

// What a user reads when a check fails: which role, what it must say, and how to fix it. The only value in
// them that is not public is the ExternalId, which the user was given to put in the role.

const FIX = 'The Terraform snippet and the CLI script from the connect response set this up.';

export function accessFailureReasons({ target, sentinelAccountId }: { target: RoleTarget; sentinelAccountId: string }) {
  const arn = customerRoleArn(target);
  const root = `arn:aws:iam::${sentinelAccountId}:root`;
  const condition = JSON.stringify({ StringEquals: { 'sts:ExternalId': target.externalId } });
  return {
    accessDenied: (awsCode: string) =>
      `Sentinel could not assume ${arn} (AWS answered ${awsCode}). Check that the role ` +
      `exists in account ${target.awsAccountId}, that its trust policy allows Sentinel's account ${sentinelAccountId} ` +
      `(${root}) to call sts:AssumeRole, and that it requires the ExternalId "${target.externalId}". ${FIX}`,
    roleMissing: `The role ${arn} does not exist. Create it in account ${target.awsAccountId}. ${FIX}`,
    trustPolicyWrong:
      `The trust policy of ${arn} does not let Sentinel's account ${sentinelAccountId} assume the role: ` +
      `it needs an Allow statement for sts:AssumeRole with the principal {"AWS": "${root}"}. ${FIX}`,
    externalIdMismatch:
      `The trust policy of ${arn} lets Sentinel's account ${sentinelAccountId} in without requiring ` +
      `this connection's ExternalId, so another Sentinel customer could have Sentinel read this account. Every statement ` +
      `that trusts ${root} needs the condition ${condition}. ${FIX}`,
  };
}
