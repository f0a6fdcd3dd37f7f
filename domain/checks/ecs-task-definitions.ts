import type { EcsContainer, EcsTaskDefinition } from '../scans/inventory';
import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check, FailingResource } from './types';

// ECS task definitions (the latest ACTIVE revision of each family, what new tasks run): secrets written into
// containers' environment, and settings that take a container's isolation from the host away (privileged mode, the
// host's network, process or IPC namespace, a writable root file system) or leave it without logs.

const ECS_DOCS = 'https://docs.aws.amazon.com/AmazonECS/latest/developerguide/';

const named = (td: EcsTaskDefinition) => `Task definition ${td.family}:${td.revision} in ${td.region}`;

/** No user (the image's, root unless it says otherwise), or root by name or id. */
const runsAsRoot = (c: EcsContainer) => c.user === null || /^(root|0)(:|$)/.test(c.user);

/** A check failing the definitions that have containers matching `bad`, named in the detail. */
function byContainer(
  taskDefinitions: EcsTaskDefinition[],
  bad: (c: EcsContainer, td: EcsTaskDefinition) => boolean,
  says: string,
): FailingResource[] {
  return taskDefinitions.flatMap((td) => {
    const containers = td.containers.filter((c) => bad(c, td));
    return containers.length > 0
      ? [
          {
            resource: td.arn,
            region: td.region,
            detail: `${named(td)} ${says}: ${containers.map((c) => c.name).join(', ')}.`,
          },
        ]
      : [];
  });
}

/** The remediation steps shared by the container settings: a new revision, then the services moved to it. */
const NEW_REVISION =
  'Task definitions cannot be edited: create a new revision. Console: ECS > Task definitions > the family > the ' +
  'latest revision > Create new revision > Create new revision with JSON, change the setting, Create; then update ' +
  'each service to it (Clusters > the cluster > Services > the service > Update > Revision LATEST). CLI: aws ecs ' +
  'describe-task-definition --task-definition FAMILY --query taskDefinition > td.json, edit td.json (drop the ' +
  'read-only fields: taskDefinitionArn, revision, status, requiresAttributes, compatibilities, registeredAt, ' +
  'registeredBy), aws ecs register-task-definition --cli-input-json file://td.json, then aws ecs update-service ' +
  '--cluster CLUSTER --service SERVICE --task-definition FAMILY; and deregister the old revision (aws ecs ' +
  'deregister-task-definition --task-definition FAMILY:REVISION).';

export const ECS_TASK_DEFINITION_CHECKS: readonly Check[] = [
  {
    id: 'exposure.ecs_secrets_in_environment',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in an ECS task definition environment variable',
    description:
      "A container's environment variables in the task definition hold what looks like a credential. Task " +
      'definitions are shown in clear to anyone who may describe them (ecs:DescribeTaskDefinition, which read-only ' +
      'roles have) and every revision keeps its own copy: the credential should be treated as exposed.',
    remediation:
      'Rotate the credential. Store it in AWS Secrets Manager or SSM Parameter Store and reference it in the ' +
      'container\'s "secrets" field ({"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:..."}), which ECS ' +
      'resolves at start with the task execution role, instead of "environment". ' +
      NEW_REVISION +
      ' Older revisions keep the value: deregister and delete them (aws ecs delete-task-definitions).',
    docsUrl: `${ECS_DOCS}specifying-sensitive-data.html`,
    controls: { 'aws-fsbp': ['ECS.8'] },
    prowler: ['ecs_task_definitions_no_environment_secrets'],
    evaluate: onPart('ecsTaskDefinitions', ({ taskDefinitions }) =>
      failing(
        taskDefinitions.flatMap((td) => {
          const found = td.containers.flatMap((c) =>
            c.environmentSecrets.map((s) => ({ name: `${s.name} of container ${c.name}`, kind: s.kind })),
          );
          return found.length > 0
            ? [
                {
                  resource: td.arn,
                  region: td.region,
                  detail: describeSecrets(`The environment of ${named(td)}`, found),
                },
              ]
            : [];
        }),
      ),
    ),
  },
  {
    id: 'exposure.ecs_privileged_container',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ECS container runs privileged',
    description:
      'A container of the task definition runs in privileged mode: it has root on the host instance, with every ' +
      'device and kernel capability, so whoever takes over the container takes over the instance and every other ' +
      "task on it, and the instance's role.",
    remediation:
      'Set "privileged": false (or remove it) and grant only the Linux capabilities the container needs ' +
      '(linuxParameters.capabilities.add). ' +
      NEW_REVISION,
    docsUrl: `${ECS_DOCS}task_definition_parameters.html#container_definition_security`,
    controls: { 'aws-fsbp': ['ECS.4'] },
    prowler: ['ecs_task_definitions_no_privileged_containers'],
    evaluate: onPart('ecsTaskDefinitions', ({ taskDefinitions }) =>
      failing(byContainer(taskDefinitions, (c) => c.privileged, 'has privileged containers')),
    ),
  },
  {
    id: 'exposure.ecs_host_network_root',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ECS task on the host network runs containers as root',
    description:
      "The task definition uses the host's network (networkMode host) and has containers that run as root (no user, " +
      "or root): such a container sees and binds the instance's network interfaces, and can reach the instance " +
      'metadata service and the credentials of its role.',
    remediation:
      'Use the awsvpc network mode (each task its own network interface and security groups), or run the containers ' +
      'as a non-root user ("user": "1000:1000"). ' +
      NEW_REVISION,
    docsUrl: `${ECS_DOCS}task-networking.html`,
    controls: { 'aws-fsbp': ['ECS.1'] },
    prowler: ['ecs_task_definitions_host_networking_mode_users'],
    evaluate: onPart('ecsTaskDefinitions', ({ taskDefinitions }) =>
      failing(
        byContainer(
          taskDefinitions,
          (c, td) => td.networkMode === 'host' && !c.privileged && runsAsRoot(c),
          "uses the host's network and runs containers as root",
        ),
      ),
    ),
  },
  {
    id: 'exposure.ecs_host_namespace_shared',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'HIGH',
    title: "ECS task shares the host's process or IPC namespace",
    description:
      "The task definition sets pidMode or ipcMode to host: its containers see the instance's processes (and can " +
      'signal or inspect them) or its shared memory, so the isolation between the task and the instance and its ' +
      'other tasks is gone.',
    remediation: `Remove pidMode and ipcMode (or set them to task). ${NEW_REVISION}`,
    docsUrl: `${ECS_DOCS}task_definition_parameters.html#other_task_definition_params`,
    controls: { 'aws-fsbp': ['ECS.3'] },
    prowler: ['ecs_task_definitions_host_namespace_not_shared'],
    evaluate: onPart('ecsTaskDefinitions', ({ taskDefinitions }) =>
      failing(
        taskDefinitions
          .filter((td) => td.pidMode === 'host' || td.ipcMode === 'host')
          .map((td) => ({
            resource: td.arn,
            region: td.region,
            detail: `${named(td)} shares the host's ${[td.pidMode === 'host' ? 'process' : '', td.ipcMode === 'host' ? 'IPC' : ''].filter(Boolean).join(' and ')} namespace.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.ecs_writable_root_filesystem',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ECS container with a writable root file system',
    description:
      'A container of the task definition may write to its root file system: whoever gets code running in it can ' +
      'change its binaries and configuration and leave tools behind, where a read-only root file system limits writes ' +
      'to the volumes given to it.',
    remediation:
      'Set "readonlyRootFilesystem": true on each container, and give the paths it must write (/tmp, caches) a ' +
      'volume of their own. ' +
      NEW_REVISION,
    docsUrl: `${ECS_DOCS}task_definition_parameters.html#container_definition_security`,
    controls: { 'aws-fsbp': ['ECS.5'] },
    prowler: ['ecs_task_definitions_containers_readonly_access'],
    evaluate: onPart('ecsTaskDefinitions', ({ taskDefinitions }) =>
      failing(
        byContainer(
          taskDefinitions,
          (c) => !c.readonlyRootFilesystem,
          'has containers with a writable root file system',
        ),
      ),
    ),
  },
  {
    id: 'detection.ecs_container_logging_off',
    service: 'ecs',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'ECS container without logging',
    description:
      'A container of the task definition has no log configuration: what it prints is lost when the task stops, so ' +
      'an intrusion, an error or abuse leaves no trace to investigate.',
    remediation:
      'Give each container a logConfiguration, e.g. {"logDriver": "awslogs", "options": {"awslogs-group": ' +
      '"/ecs/FAMILY", "awslogs-region": "REGION", "awslogs-stream-prefix": "ecs", "awslogs-create-group": "true"}} ' +
      '(the task execution role needs logs:CreateLogStream and logs:PutLogEvents). ' +
      NEW_REVISION,
    docsUrl: `${ECS_DOCS}using_awslogs.html`,
    controls: { 'aws-fsbp': ['ECS.9'] },
    prowler: ['ecs_task_definitions_logging_enabled'],
    evaluate: onPart('ecsTaskDefinitions', ({ taskDefinitions }) =>
      failing(byContainer(taskDefinitions, (c) => c.logDriver === null, 'has containers without logging')),
    ),
  },
];
