import type { BedrockAgent, IamRole, RiskyPolicy } from '../scans/inventory';
import { failing, onPart, onParts } from './helpers';
import type { Check } from './types';

// The IAM role a Bedrock agent acts with. An agent takes its actions from what a prompt asks: a prompt injection,
// through a document in its knowledge base or a user's message, acts with everything the role may do. The role
// should hold what the agent's action groups and knowledge bases need, and belong to that agent alone.

/** Why a role grants more than an agent needs, or null when nothing here says it does. */
function excessOf(role: IamRole, risky: readonly RiskyPolicy[]): string | null {
  if (role.adminAccess || role.fullAdminPolicies.length > 0) return 'administrator access';
  const fullAccess = role.managedPolicies.filter((p) => p.endsWith('FullAccess'));
  if (fullAccess.length > 0) return `the AWS managed ${fullAccess.join(', ')}`;
  const escalation = risky.find((p) => p.owner === role.arn && p.escalationPaths.length > 0);
  return escalation ? `the inline policy ${escalation.name}, which lets it escalate its privileges` : null;
}

/** Agents by role ARN, for the agents that name one. */
function agentsByRole(agents: readonly BedrockAgent[]): Map<string, BedrockAgent[]> {
  const byRole = new Map<string, BedrockAgent[]>();
  for (const agent of agents) {
    if (agent.roleArn) byRole.set(agent.roleArn, [...(byRole.get(agent.roleArn) ?? []), agent]);
  }
  return byRole;
}

export const BEDROCK_AGENT_ROLE_CHECKS: readonly Check[] = [
  {
    id: 'iam.bedrock_agent_role_privileged',
    service: 'bedrock',
    prowler: ['bedrock_agent_role_least_privilege'],
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Bedrock agent acting with a privileged role',
    description:
      "The agent's IAM role has administrator access, an AWS managed *FullAccess policy or an inline policy that " +
      'lets it escalate its privileges. Whoever steers the agent with a prompt (a user, or text planted in a ' +
      'document its knowledge base ingests) acts with all of it.',
    remediation:
      'Give the agent a role of its own holding only what its action groups and knowledge bases use: in the Bedrock ' +
      'console open Agents > the agent > Edit in Agent builder > Agent resource role, choose or create that role, ' +
      'save and prepare. With the CLI, aws bedrock-agent update-agent --agent-id ID (with its current name and ' +
      'foundation model) --agent-resource-role-arn ROLE_ARN. Then detach the broad policies from the old role if ' +
      'nothing else needs them (aws iam detach-role-policy).',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/agents-permissions.html',
    evaluate: onParts(['bedrockAgents', 'iamPrincipals'], ({ agents }, { roles, riskyPolicies }) =>
      failing(
        agents.flatMap((agent) => {
          // A role not in this account's listing (another account's, or deleted) is not judged here.
          const role = roles.find((r) => r.arn === agent.roleArn);
          const excess = role ? excessOf(role, riskyPolicies) : null;
          return role && excess
            ? [
                {
                  resource: agent.id,
                  region: agent.region,
                  detail: `Agent ${agent.name} (${agent.id}) in ${agent.region} acts with the role ${role.name}, which has ${excess}.`,
                },
              ]
            : [];
        }),
      ),
    ),
  },
  {
    id: 'iam.bedrock_agent_role_shared',
    service: 'bedrock',
    prowler: ['bedrock_agent_role_not_shared_across_agents'],
    scenario: 'iam',
    severity: 'MEDIUM',
    title: 'Bedrock agents sharing one role',
    description:
      'Several agents act with the same IAM role, so each may do what any of them needs: a prompt injection into ' +
      "the least guarded agent reaches the others' actions and knowledge bases, and CloudTrail cannot tell the " +
      "agents' calls apart.",
    remediation:
      'Create a role per agent, each with only what that agent uses and a trust policy limited to it ' +
      '(aws:SourceArn of the agent), and set it on the agent: Bedrock console > Agents > the agent > Edit in Agent ' +
      'builder > Agent resource role, or aws bedrock-agent update-agent --agent-id ID --agent-resource-role-arn ' +
      'ROLE_ARN (with its current name and foundation model).',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/agents-permissions.html',
    evaluate: onPart('bedrockAgents', ({ agents }) =>
      failing(
        [...agentsByRole(agents)].flatMap(([roleArn, sharing]) =>
          sharing.length < 2
            ? []
            : sharing.map((agent) => ({
                resource: agent.id,
                region: agent.region,
                detail: `Agent ${agent.name} (${agent.id}) in ${agent.region} shares the role ${roleArn} with ${sharing
                  .filter((a) => a !== agent)
                  .map((a) => a.name)
                  .join(', ')}.`,
              })),
        ),
      ),
    ),
  },
];
