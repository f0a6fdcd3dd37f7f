import { failing, onPart } from './helpers';
import type { Check } from './types';

// ECS services and task sets that give their tasks public IP addresses: each task is then reachable from the
// internet, through its security group only, and the containers' ports are scanned continuously.

export const ECS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.ecs_service_public_ip',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ECS service assigns public IP addresses to its tasks',
    description:
      "The service's tasks get public IP addresses (assignPublicIp ENABLED): each one is on the internet, guarded " +
      'only by its security group, rather than behind a load balancer or a NAT gateway.',
    remediation:
      'Run the tasks in private subnets with a route to a NAT gateway (or VPC endpoints for ECR, S3 and CloudWatch ' +
      'Logs) and put a load balancer in front of what must be public. ECS console > the cluster > the service > ' +
      'Update service > Networking, choose private subnets and turn Public IP off, then update; or aws ecs ' +
      'update-service --cluster CLUSTER --service SERVICE --network-configuration ' +
      '"awsvpcConfiguration={subnets=[subnet-...],securityGroups=[sg-...],assignPublicIp=DISABLED}".',
    docsUrl: 'https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task-networking-awsvpc.html',
    controls: { 'aws-fsbp': ['ECS.2'] },
    prowler: ['ecs_service_no_assign_public_ip'],
    evaluate: onPart('ecsServices', ({ services }) =>
      failing(
        services
          .filter((s) => s.assignPublicIp)
          .map((s) => ({
            resource: s.arn,
            region: s.region,
            detail: `ECS service ${s.name} in ${s.region} assigns public IP addresses to its tasks.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.ecs_task_set_public_ip',
    service: 'ecs',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'ECS task set assigns public IP addresses to its tasks',
    description:
      'The task set (of a service deployed by CodeDeploy or an external controller) gives its tasks public IP ' +
      'addresses: each one is on the internet, guarded only by its security group.',
    remediation:
      "A task set's network configuration cannot be changed: create a new one in private subnets with public IP " +
      'off and move the traffic to it, through your deployment controller or with aws ecs create-task-set --cluster ' +
      'CLUSTER --service SERVICE --task-definition TASKDEF --network-configuration ' +
      '"awsvpcConfiguration={subnets=[subnet-...],securityGroups=[sg-...],assignPublicIp=DISABLED}" and aws ecs ' +
      'update-service-primary-task-set, then delete the old one (aws ecs delete-task-set). For CodeDeploy, change ' +
      "the service's network configuration in the AppSpec and deploy. The ECS console shows task sets under the " +
      "service's Deployments tab.",
    docsUrl: 'https://docs.aws.amazon.com/AmazonECS/latest/developerguide/deployment-type-external.html',
    controls: { 'aws-fsbp': ['ECS.16'] },
    prowler: ['ecs_task_set_no_assign_public_ip'],
    evaluate: onPart('ecsServices', ({ taskSets }) =>
      failing(
        taskSets
          .filter((t) => t.assignPublicIp)
          .map((t) => ({
            resource: t.arn,
            region: t.region,
            detail: `ECS task set ${t.id} of service ${t.service} in ${t.region} assigns public IP addresses to its tasks.`,
          })),
      ),
    ),
  },
];
