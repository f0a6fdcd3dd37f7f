import {
  AddRoleToInstanceProfileCommand,
  AddUserToGroupCommand,
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateGroupCommand,
  CreateInstanceProfileCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  type IAMClient,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { mapLimit } from '../../cloud/aws/collectors/concurrency';

// IAM principals described as data, created in a moto account through the IAM API as a customer's administrator
// would: customer managed policies first, then groups, roles (each in an instance profile of its own name when
// asked) and users, then what ties them together (attachments, inline policies, memberships). Each phase's calls run
// a few at a time: a suite seeding a hundred principals spends seconds, not a minute, on it.

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: Record<string, unknown>[];
}

/** The name every seeded inline policy has: `inline:<owner ARN>/<INLINE_POLICY>` in the analysis' evidence. */
export const INLINE_POLICY = 'grants';

export interface SeededPolicy {
  name: string;
  document: PolicyDocument;
}

export interface SeededGroup {
  name: string;
  /** Managed policies, by ARN. */
  attached?: string[];
}

export interface SeededUser {
  name: string;
  /** Its inline policy (INLINE_POLICY); none when absent. */
  inline?: PolicyDocument;
  attached?: string[];
  /** The groups it is in, by name. */
  groups?: string[];
}

export interface SeededRole {
  name: string;
  trust: PolicyDocument;
  inline?: PolicyDocument;
  attached?: string[];
  /** Whether an instance profile of the role's name holds it (what EC2 launches an instance with). */
  instanceProfile?: boolean;
}

export interface IamSeed {
  policies?: SeededPolicy[];
  groups?: SeededGroup[];
  roles?: SeededRole[];
  users?: SeededUser[];
}

export const document = (...Statement: Record<string, unknown>[]): PolicyDocument => ({
  Version: '2012-10-17',
  Statement,
});

export const ADMINISTRATOR_ACCESS = 'arn:aws:iam::aws:policy/AdministratorAccess';

/** The ARNs of an account's IAM resources, by name. */
export function arnsOf(accountId: string) {
  const arn = (kind: string) => (name: string) => `arn:aws:iam::${accountId}:${kind}/${name}`;
  return {
    user: arn('user'),
    role: arn('role'),
    group: arn('group'),
    policy: arn('policy'),
    instanceProfile: arn('instance-profile'),
    root: `arn:aws:iam::${accountId}:root`,
  };
}

/** Calls at once within a phase: enough to hide moto's per-request latency without queueing on its lock. */
const CONCURRENCY = 8;

async function each<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  await mapLimit({ items, limit: CONCURRENCY, run });
}

/** Creates the seeds' principals in the account `iam` acts in (the seeds' names must not collide). */
export async function seedIam(iam: IAMClient, seeds: IamSeed | readonly IamSeed[]): Promise<void> {
  const all = Array.isArray(seeds) ? (seeds as readonly IamSeed[]) : [seeds as IamSeed];
  const policies = all.flatMap((s) => s.policies ?? []);
  const groups = all.flatMap((s) => s.groups ?? []);
  const roles = all.flatMap((s) => s.roles ?? []);
  const users = all.flatMap((s) => s.users ?? []);
  const json = (d: PolicyDocument) => JSON.stringify(d);

  await each(policies, (p) =>
    iam.send(new CreatePolicyCommand({ PolicyName: p.name, PolicyDocument: json(p.document) })),
  );
  await each<() => Promise<unknown>>(
    [
      ...groups.map((g) => () => iam.send(new CreateGroupCommand({ GroupName: g.name }))),
      ...roles.map(
        (r) => () => iam.send(new CreateRoleCommand({ RoleName: r.name, AssumeRolePolicyDocument: json(r.trust) })),
      ),
      ...roles
        .filter((r) => r.instanceProfile)
        .map((r) => () => iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: r.name }))),
      ...users.map((u) => () => iam.send(new CreateUserCommand({ UserName: u.name }))),
    ],
    (call) => call(),
  );
  await each<() => Promise<unknown>>(
    [
      ...groups.flatMap((g) =>
        (g.attached ?? []).map(
          (arn) => () => iam.send(new AttachGroupPolicyCommand({ GroupName: g.name, PolicyArn: arn })),
        ),
      ),
      ...roles.flatMap((r) => [
        ...(r.attached ?? []).map(
          (arn) => () => iam.send(new AttachRolePolicyCommand({ RoleName: r.name, PolicyArn: arn })),
        ),
        ...(r.inline
          ? [
              () =>
                iam.send(
                  new PutRolePolicyCommand({
                    RoleName: r.name,
                    PolicyName: INLINE_POLICY,
                    PolicyDocument: json(r.inline as PolicyDocument),
                  }),
                ),
            ]
          : []),
        ...(r.instanceProfile
          ? [() => iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: r.name, RoleName: r.name }))]
          : []),
      ]),
      ...users.flatMap((u) => [
        ...(u.attached ?? []).map(
          (arn) => () => iam.send(new AttachUserPolicyCommand({ UserName: u.name, PolicyArn: arn })),
        ),
        ...(u.inline
          ? [
              () =>
                iam.send(
                  new PutUserPolicyCommand({
                    UserName: u.name,
                    PolicyName: INLINE_POLICY,
                    PolicyDocument: json(u.inline as PolicyDocument),
                  }),
                ),
            ]
          : []),
        ...(u.groups ?? []).map(
          (group) => () => iam.send(new AddUserToGroupCommand({ UserName: u.name, GroupName: group })),
        ),
      ]),
    ],
    (call) => call(),
  );
}
