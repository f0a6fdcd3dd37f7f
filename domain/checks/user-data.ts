import type { UserDataSecrets } from '../scans/compute';
import type { Unread } from '../scans/inventory';
import { describeSecrets } from '../secrets/detector';
import { failing, withUnread } from './helpers';
import type { CheckResult, FailingResource } from './types';

// What the checks of user data (instances, launch templates, launch configurations) share: a resource whose user
// data holds a secret fails with the secret's kind and line, one whose user data could not be read as text is
// unread (never clean).

export interface WithUserData {
  resource: string;
  region: string;
  /** How the finding names what holds the user data: "User data of instance i-0abc in us-east-1". */
  where: string;
  secrets: UserDataSecrets;
}

export function userDataResult(items: readonly WithUserData[]): CheckResult {
  const failed: FailingResource[] = items
    .filter((i) => i.secrets !== null && i.secrets.length > 0)
    .map((i) => ({ resource: i.resource, region: i.region, detail: describeSecrets(i.where, i.secrets ?? []) }));
  const unread: Unread[] = items
    .filter((i) => i.secrets === null)
    .map((i) => ({
      kind: 'resource',
      scope: i.resource,
      reason: `${i.where} is neither UTF-8 text nor gzipped text: it could not be searched for secrets.`,
    }));
  return withUnread(failing(failed), unread);
}

/** IMDSv2 is required, or the metadata service is off: a launch's credentials cannot be taken with a plain GET. */
export const imdsv2Enforced = (m: { httpTokens: string | null; httpEndpoint: string | null }) =>
  m.httpTokens === 'required' || m.httpEndpoint === 'disabled';

/** How a finding describes metadata options that allow IMDSv1. */
export const metadataDetail = (m: { httpTokens: string | null }) =>
  m.httpTokens === null
    ? 'sets no metadata options, so IMDSv1 stays allowed unless the AMI or the account default requires IMDSv2'
    : `sets HttpTokens to ${m.httpTokens}, which allows IMDSv1`;
