// The privilege-escalation methods the attack-path analysis looks for (escalation.ts), as data. Each is a path of
// the pathfinding.cloud catalogue (https://pathfinding.cloud, DataDog/pathfinding.cloud, data/paths/<service>/<id>.yaml),
// under the catalogue's id and name, with the permissions it needs, on which resource, and what it yields. It
// supersedes, for the analysis, the single-policy list of domain/checks/privilege-escalation.ts (Rhino Security
// Labs' methods as Prowler lists them), which the IAM checks keep using.
//
// Every AWS path of the catalogue (65 at its commit 84dd65c) is here. Those that use a resource the IAM data does not list (an existing
// function, stack, instance, notebook, job, cluster) or a fact about a user it does not hold (a console password)
// carry that need in `unseen`: Sentinel finds the principal holding the permissions and the roles such a resource
// could run with, and shows the step as possible.
//
// One method is not the catalogue's: iam:SetDefaultPolicyVersion, from Rhino Security Labs' original list (the
// catalogue's authors list it as still to be documented); it keeps an id of its own.
//
// Left out, and why:
// - swapping an instance's profile (ec2:AssociateIamInstanceProfile, ec2:ReplaceIamInstanceProfileAssociation with
//   iam:PassRole): not in the catalogue, and it pays only on an instance the attacker already runs code on, which
//   the IAM data cannot show;
// - the catalogue's credential-access category (secrets left in resources): it has no AWS path yet, and what a
//   resource holds is not IAM data.

/** Which resource a permission is asked on. */
export type PermissionTarget =
  /** The principal's own ARN. */
  | 'self'
  /** A group the principal (a user) belongs to. */
  | 'own-group'
  /** A customer managed policy attached to the principal or to one of its groups. */
  | 'own-policy'
  /** Any group: the one the user joins. */
  | 'group'
  /** Another user. */
  | 'user'
  /** Another role. */
  | 'role'
  /** A customer managed policy attached to that other role. */
  | 'role-policy'
  /** The role handed to a service. */
  | 'passed-role'
  /** `*`: a resource the attacker creates, or one the IAM data does not list. */
  | 'any';

export interface MethodPermission {
  action: string;
  on: PermissionTarget;
}

/** What the method gives the principal that uses it. */
export type EscalationYield =
  /** It changes its own policies (or its group's, or a policy attached to it) and grants itself anything. */
  | { kind: 'own-policies' }
  /** The user joins a group and gains the group's policies. */
  | { kind: 'join-group' }
  /** It acts as another user: a new access key or a console password. */
  | { kind: 'user-credentials' }
  /** It assumes a role whose trust policy lets it in. */
  | { kind: 'assume-role' }
  /** It rewrites a role's trust policy to let itself in. */
  | { kind: 'rewrite-trust' }
  /**
   * Its code runs as a role a service holds: a role it passes to a resource it creates, or the role of an
   * existing resource it changes. `services` are the service principals the role must trust; `instanceProfile`:
   * the role must be in an instance profile (EC2).
   */
  | { kind: 'service-role'; services: readonly string[]; instanceProfile: boolean }
  /**
   * It changes another principal's policies, then acts as that principal through `access` (sts:AssumeRole,
   * iam:UpdateAssumeRolePolicy, iam:CreateAccessKey).
   */
  | { kind: 'modify-other'; principal: 'user' | 'role'; access: string };

export const ESCALATION_CATEGORIES = [
  'self-escalation',
  'principal-access',
  'new-passrole',
  'existing-passrole',
] as const;
export type EscalationCategory = (typeof ESCALATION_CATEGORIES)[number];

export interface EscalationMethod {
  /** The catalogue's id (`iam-001`). */
  id: string;
  /** The catalogue's name: its permissions, joined by ` + `. */
  name: string;
  category: EscalationCategory;
  /** Who can use it: some methods act on the principal's own user or role. */
  principals: 'users' | 'roles' | 'all';
  permissions: readonly MethodPermission[];
  yields: EscalationYield;
  /** What else must hold that the IAM data does not show: the method's steps are only possible. */
  unseen?: string;
  description: string;
  /** Where it is documented. */
  reference: string;
}

const catalogue = (id: string) => `https://pathfinding.cloud/paths/${id}`;
const RHINO = 'https://rhinosecuritylabs.com/aws/aws-privilege-escalation-methods-mitigation/';

const EC2 = 'ec2.amazonaws.com';
const LAMBDA = 'lambda.amazonaws.com';
const CLOUDFORMATION = 'cloudformation.amazonaws.com';
const CODEBUILD = 'codebuild.amazonaws.com';
const GLUE = 'glue.amazonaws.com';
const SAGEMAKER = 'sagemaker.amazonaws.com';
const ECS_TASKS = 'ecs-tasks.amazonaws.com';
const APP_RUNNER = 'tasks.apprunner.amazonaws.com';
const BEDROCK_AGENTCORE = 'bedrock-agentcore.amazonaws.com';
const DATA_PIPELINE = ['datapipeline.amazonaws.com', 'elasticmapreduce.amazonaws.com'];

const on =
  (target: PermissionTarget) =>
  (...actions: string[]): MethodPermission[] =>
    actions.map((action) => ({ action, on: target }));
const self = on('self');
const any = on('any');
const user = on('user');
const role = on('role');
const passRole = on('passed-role')('iam:PassRole');

const runsAs = (services: string | readonly string[], instanceProfile = false): EscalationYield => ({
  kind: 'service-role',
  services: typeof services === 'string' ? [services] : services,
  instanceProfile,
});
const nameOf = (permissions: readonly MethodPermission[]) => permissions.map((p) => p.action).join(' + ');

type Entry = Omit<EscalationMethod, 'name' | 'reference' | 'principals'> &
  Partial<Pick<EscalationMethod, 'name' | 'principals' | 'reference'>>;
const method = (entry: Entry): EscalationMethod => ({
  principals: 'all',
  reference: catalogue(entry.id),
  name: nameOf(entry.permissions),
  ...entry,
});

/** The principal changes its own permissions. */
const SELF_ESCALATION: EscalationMethod[] = [
  method({
    id: 'iam-001',
    category: 'self-escalation',
    permissions: on('own-policy')('iam:CreatePolicyVersion'),
    yields: { kind: 'own-policies' },
    description: 'Writes a new default version of a customer managed policy attached to it, granting itself anything.',
  }),
  method({
    id: 'rhino-iam-setdefaultpolicyversion',
    category: 'self-escalation',
    permissions: on('own-policy')('iam:SetDefaultPolicyVersion'),
    yields: { kind: 'own-policies' },
    unseen: 'an earlier version of the policy grants more than its default version',
    description: 'Makes an earlier, broader version of a customer managed policy attached to it the default one.',
    reference: RHINO,
  }),
  method({
    id: 'iam-005',
    category: 'self-escalation',
    principals: 'roles',
    permissions: self('iam:PutRolePolicy'),
    yields: { kind: 'own-policies' },
    description: 'The role writes an inline policy into itself granting anything.',
  }),
  method({
    id: 'iam-007',
    category: 'self-escalation',
    principals: 'users',
    permissions: self('iam:PutUserPolicy'),
    yields: { kind: 'own-policies' },
    description: 'The user writes an inline policy into itself granting anything.',
  }),
  method({
    id: 'iam-008',
    category: 'self-escalation',
    principals: 'users',
    permissions: self('iam:AttachUserPolicy'),
    yields: { kind: 'own-policies' },
    description: 'The user attaches a managed policy such as AdministratorAccess to itself.',
  }),
  method({
    id: 'iam-009',
    category: 'self-escalation',
    principals: 'roles',
    permissions: self('iam:AttachRolePolicy'),
    yields: { kind: 'own-policies' },
    description: 'The role attaches a managed policy such as AdministratorAccess to itself.',
  }),
  method({
    id: 'iam-010',
    category: 'self-escalation',
    principals: 'users',
    permissions: on('own-group')('iam:AttachGroupPolicy'),
    yields: { kind: 'own-policies' },
    description: 'The user attaches a managed policy such as AdministratorAccess to a group it belongs to.',
  }),
  method({
    id: 'iam-011',
    category: 'self-escalation',
    principals: 'users',
    permissions: on('own-group')('iam:PutGroupPolicy'),
    yields: { kind: 'own-policies' },
    description: 'The user writes an inline policy granting anything into a group it belongs to.',
  }),
  method({
    id: 'iam-013',
    category: 'self-escalation',
    principals: 'users',
    permissions: on('group')('iam:AddUserToGroup'),
    yields: { kind: 'join-group' },
    description: 'The user adds itself to a group whose policies grant more than its own.',
  }),
];

/** The principal becomes another one, or changes another one and then becomes it. */
const PRINCIPAL_ACCESS: EscalationMethod[] = [
  method({
    id: 'sts-001',
    category: 'principal-access',
    permissions: role('sts:AssumeRole'),
    yields: { kind: 'assume-role' },
    description: "Assumes a role whose trust policy lets it in (its ARN, or its account's root with its own Allow).",
  }),
  method({
    id: 'iam-002',
    category: 'principal-access',
    permissions: user('iam:CreateAccessKey'),
    yields: { kind: 'user-credentials' },
    description: 'Creates an access key for another user (who holds fewer than two) and acts as that user.',
  }),
  method({
    id: 'iam-003',
    category: 'principal-access',
    permissions: user('iam:CreateAccessKey', 'iam:DeleteAccessKey'),
    yields: { kind: 'user-credentials' },
    description: "Deletes one of another user's two access keys, creates one of its own and acts as that user.",
  }),
  method({
    id: 'iam-004',
    category: 'principal-access',
    permissions: user('iam:CreateLoginProfile'),
    yields: { kind: 'user-credentials' },
    unseen: 'the user has no console password yet',
    description: 'Gives another user a console password it chooses and signs in as that user.',
  }),
  method({
    id: 'iam-006',
    category: 'principal-access',
    permissions: user('iam:UpdateLoginProfile'),
    yields: { kind: 'user-credentials' },
    unseen: 'the user already has a console password',
    description: "Changes another user's console password and signs in as that user.",
  }),
  method({
    id: 'iam-012',
    category: 'principal-access',
    permissions: role('iam:UpdateAssumeRolePolicy'),
    yields: { kind: 'rewrite-trust' },
    description:
      "Rewrites a role's trust policy to name itself, then assumes the role (a named principal needs no Allow).",
  }),
  method({
    id: 'iam-014',
    category: 'principal-access',
    permissions: role('iam:AttachRolePolicy', 'sts:AssumeRole'),
    yields: { kind: 'modify-other', principal: 'role', access: 'sts:AssumeRole' },
    description: 'Attaches an administrator policy to a role that trusts it, then assumes the role.',
  }),
  method({
    id: 'iam-015',
    category: 'principal-access',
    permissions: user('iam:AttachUserPolicy', 'iam:CreateAccessKey'),
    yields: { kind: 'modify-other', principal: 'user', access: 'iam:CreateAccessKey' },
    description: 'Attaches an administrator policy to another user, then creates an access key for that user.',
  }),
  method({
    id: 'iam-016',
    category: 'principal-access',
    permissions: [...on('role-policy')('iam:CreatePolicyVersion'), ...role('sts:AssumeRole')],
    yields: { kind: 'modify-other', principal: 'role', access: 'sts:AssumeRole' },
    description: 'Writes a new default version of a policy attached to a role that trusts it, then assumes the role.',
  }),
  method({
    id: 'iam-017',
    category: 'principal-access',
    permissions: role('iam:PutRolePolicy', 'sts:AssumeRole'),
    yields: { kind: 'modify-other', principal: 'role', access: 'sts:AssumeRole' },
    description: 'Writes an inline policy granting anything into a role that trusts it, then assumes the role.',
  }),
  method({
    id: 'iam-018',
    category: 'principal-access',
    permissions: user('iam:PutUserPolicy', 'iam:CreateAccessKey'),
    yields: { kind: 'modify-other', principal: 'user', access: 'iam:CreateAccessKey' },
    description: 'Writes an inline policy granting anything into another user, then creates an access key for it.',
  }),
  method({
    id: 'iam-019',
    category: 'principal-access',
    permissions: role('iam:AttachRolePolicy', 'iam:UpdateAssumeRolePolicy'),
    yields: { kind: 'modify-other', principal: 'role', access: 'iam:UpdateAssumeRolePolicy' },
    description: "Attaches an administrator policy to a role and rewrites the role's trust policy to assume it.",
  }),
  method({
    id: 'iam-020',
    category: 'principal-access',
    permissions: [...on('role-policy')('iam:CreatePolicyVersion'), ...role('iam:UpdateAssumeRolePolicy')],
    yields: { kind: 'modify-other', principal: 'role', access: 'iam:UpdateAssumeRolePolicy' },
    description: "Writes a new version of a policy attached to a role and rewrites the role's trust to assume it.",
  }),
  method({
    id: 'iam-021',
    category: 'principal-access',
    permissions: role('iam:PutRolePolicy', 'iam:UpdateAssumeRolePolicy'),
    yields: { kind: 'modify-other', principal: 'role', access: 'iam:UpdateAssumeRolePolicy' },
    description: "Writes an inline policy granting anything into a role and rewrites the role's trust to assume it.",
  }),
];

/** The principal passes a role to a resource it creates, whose code it controls. */
const NEW_PASSROLE: EscalationMethod[] = [
  method({
    id: 'ec2-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ec2:RunInstances')],
    yields: runsAs(EC2, true),
    description: "Launches an instance with the role's instance profile and reads the role's keys from it.",
  }),
  method({
    id: 'ec2-003',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ec2:RequestSpotInstances')],
    yields: runsAs(EC2, true),
    description: "Requests a Spot Instance with the role's instance profile and reads the role's keys from it.",
  }),
  method({
    id: 'lambda-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('lambda:CreateFunction', 'lambda:InvokeFunction')],
    yields: runsAs(LAMBDA),
    description: 'Creates a function running as the role and invokes it.',
  }),
  method({
    id: 'lambda-002',
    category: 'new-passrole',
    permissions: [...passRole, ...any('lambda:CreateFunction', 'lambda:CreateEventSourceMapping')],
    yields: runsAs(LAMBDA),
    unseen: 'an event source (a stream or a queue) exists to trigger the function',
    description: 'Creates a function running as the role and has an event source trigger it.',
  }),
  method({
    id: 'lambda-006',
    category: 'new-passrole',
    permissions: [...passRole, ...any('lambda:CreateFunction', 'lambda:AddPermission')],
    yields: runsAs(LAMBDA),
    description: "Creates a function running as the role and grants itself invocation in the function's policy.",
  }),
  method({
    id: 'cloudformation-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('cloudformation:CreateStack')],
    yields: runsAs(CLOUDFORMATION),
    description: 'Creates a stack whose template CloudFormation carries out as the role.',
  }),
  method({
    id: 'cloudformation-003',
    category: 'new-passrole',
    permissions: [...passRole, ...any('cloudformation:CreateStackSet', 'cloudformation:CreateStackInstances')],
    yields: runsAs(CLOUDFORMATION),
    // The passed role is the StackSet's administration role; the execution role it assumes is the next step.
    description: 'Creates a StackSet with the role as its administration role and deploys its template.',
  }),
  method({
    id: 'cloudformation-004',
    category: 'new-passrole',
    permissions: [...passRole, ...any('cloudformation:UpdateStackSet')],
    yields: runsAs(CLOUDFORMATION),
    unseen: 'a StackSet exists to update',
    description: 'Updates a StackSet to use the role as its administration role and deploy its own template.',
  }),
  method({
    id: 'codebuild-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('codebuild:CreateProject', 'codebuild:StartBuild')],
    yields: runsAs(CODEBUILD),
    description: 'Creates a build project running as the role and starts a build of its own buildspec.',
  }),
  method({
    id: 'codebuild-004',
    category: 'new-passrole',
    permissions: [...passRole, ...any('codebuild:CreateProject', 'codebuild:StartBuildBatch')],
    yields: runsAs(CODEBUILD),
    description: 'Creates a batch build project running as the role and starts a batch of its own buildspec.',
  }),
  method({
    id: 'datapipeline-001',
    category: 'new-passrole',
    permissions: [
      ...passRole,
      ...any('datapipeline:CreatePipeline', 'datapipeline:PutPipelineDefinition', 'datapipeline:ActivatePipeline'),
    ],
    yields: runsAs(DATA_PIPELINE),
    description: 'Creates and activates a pipeline running shell commands as the role.',
  }),
  method({
    id: 'ecs-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ecs:CreateCluster', 'ecs:RegisterTaskDefinition', 'ecs:CreateService')],
    yields: runsAs(ECS_TASKS),
    description: 'Creates a cluster and a service running a task definition with the role as its task role.',
  }),
  method({
    id: 'ecs-002',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ecs:CreateCluster', 'ecs:RegisterTaskDefinition', 'ecs:RunTask')],
    yields: runsAs(ECS_TASKS),
    description: 'Creates a cluster and runs a task definition with the role as its task role.',
  }),
  method({
    id: 'ecs-003',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ecs:RegisterTaskDefinition', 'ecs:CreateService')],
    yields: runsAs(ECS_TASKS),
    unseen: 'an ECS cluster exists',
    description: 'Creates a service on an existing cluster running a task definition with the role as its task role.',
  }),
  method({
    id: 'ecs-004',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ecs:RegisterTaskDefinition', 'ecs:RunTask')],
    yields: runsAs(ECS_TASKS),
    unseen: 'an ECS cluster exists',
    description: 'Runs a task definition with the role as its task role on an existing cluster.',
  }),
  method({
    id: 'ecs-005',
    category: 'new-passrole',
    permissions: [...passRole, ...any('ecs:RegisterTaskDefinition', 'ecs:StartTask')],
    yields: runsAs(ECS_TASKS),
    unseen: 'an ECS cluster with an EC2 container instance exists',
    description: 'Starts a task definition with the role as its task role on an existing container instance.',
  }),
  method({
    id: 'glue-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('glue:CreateDevEndpoint')],
    yields: runsAs(GLUE),
    description: 'Creates a development endpoint running as the role and logs in to it over SSH.',
  }),
  method({
    id: 'glue-003',
    category: 'new-passrole',
    permissions: [...passRole, ...any('glue:CreateJob', 'glue:StartJobRun')],
    yields: runsAs(GLUE),
    description: 'Creates a job running its own script as the role and starts it.',
  }),
  method({
    id: 'glue-004',
    category: 'new-passrole',
    permissions: [...passRole, ...any('glue:CreateJob', 'glue:CreateTrigger')],
    yields: runsAs(GLUE),
    description: 'Creates a job running its own script as the role and a trigger that starts it.',
  }),
  method({
    id: 'glue-005',
    category: 'new-passrole',
    permissions: [...passRole, ...any('glue:UpdateJob', 'glue:StartJobRun')],
    yields: runsAs(GLUE),
    unseen: 'a Glue job exists to update',
    description: 'Changes an existing job to run its own script as the role and starts it.',
  }),
  method({
    id: 'glue-006',
    category: 'new-passrole',
    permissions: [...passRole, ...any('glue:UpdateJob', 'glue:CreateTrigger')],
    yields: runsAs(GLUE),
    unseen: 'a Glue job exists to update',
    description: 'Changes an existing job to run its own script as the role and a trigger that starts it.',
  }),
  method({
    id: 'sagemaker-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('sagemaker:CreateNotebookInstance')],
    yields: runsAs(SAGEMAKER),
    description: 'Creates a notebook instance running as the role and runs code in it.',
  }),
  method({
    id: 'sagemaker-002',
    category: 'new-passrole',
    permissions: [...passRole, ...any('sagemaker:CreateTrainingJob')],
    yields: runsAs(SAGEMAKER),
    description: 'Creates a training job running its own container as the role.',
  }),
  method({
    id: 'sagemaker-003',
    category: 'new-passrole',
    permissions: [...passRole, ...any('sagemaker:CreateProcessingJob')],
    yields: runsAs(SAGEMAKER),
    description: 'Creates a processing job running its own container as the role.',
  }),
  method({
    id: 'apprunner-001',
    category: 'new-passrole',
    permissions: [...passRole, ...any('apprunner:CreateService')],
    yields: runsAs(APP_RUNNER),
    description: 'Creates an App Runner service running its own code as the role.',
  }),
  method({
    id: 'bedrock-001',
    category: 'new-passrole',
    permissions: [
      ...passRole,
      ...any(
        'bedrock-agentcore:CreateCodeInterpreter',
        'bedrock-agentcore:StartCodeInterpreterSession',
        'bedrock-agentcore:InvokeCodeInterpreter',
      ),
    ],
    yields: runsAs(BEDROCK_AGENTCORE),
    description: "Creates a Bedrock AgentCore code interpreter running as the role and reads the role's keys in it.",
  }),
  method({
    id: 'cloudformation-005',
    // The catalogue files it with the PassRole methods; it passes no role, the stack's own runs the change set.
    category: 'new-passrole',
    permissions: any('cloudformation:CreateChangeSet', 'cloudformation:ExecuteChangeSet'),
    yields: runsAs(CLOUDFORMATION),
    unseen: 'a stack uses the role as its service role',
    description: "Creates and executes a change set on a stack, which CloudFormation carries out as the stack's role.",
  }),
];

/** The principal changes, or gets into, an existing resource that runs as a role. */
const EXISTING_PASSROLE: EscalationMethod[] = [
  method({
    id: 'lambda-003',
    category: 'existing-passrole',
    permissions: any('lambda:UpdateFunctionCode'),
    yields: runsAs(LAMBDA),
    unseen: 'a function runs as the role and is invoked',
    description: "Replaces an existing function's code, which runs as its role when next invoked.",
  }),
  method({
    id: 'lambda-004',
    category: 'existing-passrole',
    permissions: any('lambda:UpdateFunctionCode', 'lambda:InvokeFunction'),
    yields: runsAs(LAMBDA),
    unseen: 'a function runs as the role',
    description: "Replaces an existing function's code and invokes it.",
  }),
  method({
    id: 'lambda-005',
    category: 'existing-passrole',
    permissions: any('lambda:UpdateFunctionCode', 'lambda:AddPermission'),
    yields: runsAs(LAMBDA),
    unseen: 'a function runs as the role',
    description: "Replaces an existing function's code and grants itself invocation in the function's policy.",
  }),
  method({
    id: 'glue-002',
    category: 'existing-passrole',
    permissions: any('glue:UpdateDevEndpoint'),
    yields: runsAs(GLUE),
    unseen: 'a Glue development endpoint runs as the role',
    description: 'Adds its SSH key to an existing development endpoint and runs code there as its role.',
  }),
  method({
    id: 'ssm-001',
    category: 'existing-passrole',
    permissions: any('ssm:StartSession'),
    yields: runsAs(EC2, true),
    unseen: "an instance running the SSM agent holds the role's instance profile",
    description: "Opens a shell on an instance through Session Manager and reads the instance role's keys.",
  }),
  method({
    id: 'ssm-002',
    category: 'existing-passrole',
    permissions: any('ssm:SendCommand'),
    yields: runsAs(EC2, true),
    unseen: "an instance running the SSM agent holds the role's instance profile",
    description: "Runs commands on an instance through Run Command and reads the instance role's keys.",
  }),
  method({
    id: 'ec2-002',
    category: 'existing-passrole',
    permissions: any('ec2:ModifyInstanceAttribute', 'ec2:StopInstances', 'ec2:StartInstances'),
    yields: runsAs(EC2, true),
    unseen: "an instance holds the role's instance profile",
    description: "Rewrites a stopped instance's user data, which runs at its next start as the instance's role.",
  }),
  method({
    id: 'ec2-004',
    category: 'existing-passrole',
    permissions: any('ec2:CreateLaunchTemplateVersion', 'ec2:ModifyLaunchTemplate'),
    yields: runsAs(EC2, true),
    unseen: "a launch template names the role's instance profile and instances are launched from it",
    description: "Adds its own user data to a launch template naming the role's instance profile and makes it default.",
  }),
  method({
    id: 'ec2instanceconnect-003',
    // The catalogue names it by its one escalating permission; ec2:DescribeInstances finds the instance.
    name: 'ec2-instance-connect:SendSSHPublicKey',
    category: 'existing-passrole',
    permissions: any('ec2-instance-connect:SendSSHPublicKey', 'ec2:DescribeInstances'),
    yields: runsAs(EC2, true),
    unseen: "an instance holding the role's instance profile accepts EC2 Instance Connect and is reachable on SSH",
    description: "Pushes its SSH key to an instance, logs in and reads the instance role's keys.",
  }),
  method({
    id: 'cloudformation-002',
    category: 'existing-passrole',
    permissions: any('cloudformation:UpdateStack'),
    yields: runsAs(CLOUDFORMATION),
    unseen: 'a stack uses the role as its service role',
    description: "Updates a stack's template, which CloudFormation carries out as the stack's role.",
  }),
  method({
    id: 'codebuild-002',
    category: 'existing-passrole',
    permissions: any('codebuild:StartBuild'),
    yields: runsAs(CODEBUILD),
    unseen: 'a build project runs as the role and allows buildspec overrides',
    description: 'Starts a build of an existing project with its own buildspec, which runs as the project role.',
  }),
  method({
    id: 'codebuild-003',
    category: 'existing-passrole',
    permissions: any('codebuild:StartBuildBatch'),
    yields: runsAs(CODEBUILD),
    unseen: 'a batch build project runs as the role and allows buildspec overrides',
    description: 'Starts a batch build of an existing project with its own buildspec, run as the project role.',
  }),
  method({
    id: 'sagemaker-004',
    category: 'existing-passrole',
    permissions: any('sagemaker:CreatePresignedNotebookInstanceUrl'),
    yields: runsAs(SAGEMAKER),
    unseen: 'a notebook instance runs as the role',
    description: "Opens an existing notebook instance through a presigned URL and runs code as the notebook's role.",
  }),
  method({
    id: 'sagemaker-005',
    category: 'existing-passrole',
    permissions: any(
      'sagemaker:CreateNotebookInstanceLifecycleConfig',
      'sagemaker:StopNotebookInstance',
      'sagemaker:UpdateNotebookInstance',
      'sagemaker:StartNotebookInstance',
    ),
    yields: runsAs(SAGEMAKER),
    unseen: 'a notebook instance runs as the role',
    description:
      "Gives a notebook instance a start-up script of its own and restarts it, running as the notebook's role.",
  }),
  method({
    id: 'apprunner-002',
    category: 'existing-passrole',
    permissions: any('apprunner:UpdateService'),
    yields: runsAs(APP_RUNNER),
    unseen: 'an App Runner service runs as the role',
    description: "Changes an App Runner service's code or start command, which runs as the service's role.",
  }),
  method({
    id: 'bedrock-002',
    category: 'existing-passrole',
    permissions: any('bedrock-agentcore:StartCodeInterpreterSession', 'bedrock-agentcore:InvokeCodeInterpreter'),
    yields: runsAs(BEDROCK_AGENTCORE),
    unseen: 'a Bedrock AgentCore code interpreter runs as the role',
    description: "Runs code in an existing code interpreter and reads its role's keys.",
  }),
];

export const ESCALATION_METHODS: readonly EscalationMethod[] = [
  ...SELF_ESCALATION,
  ...PRINCIPAL_ACCESS,
  ...NEW_PASSROLE,
  ...EXISTING_PASSROLE,
];

/** Every action some method needs. */
export const ESCALATION_ACTIONS: readonly string[] = [
  ...new Set(ESCALATION_METHODS.flatMap((m) => m.permissions.map((p) => p.action))),
];
