import { CloudFormationClient, paginateDescribeStacks } from '@aws-sdk/client-cloudformation';
import type { CloudFormationStack } from '../../../domain/scans/inventory';
import { findInSettings } from '../../../domain/secrets/detector';
import { foldPages, type ReadContext, regionalPart } from './reader';

// CloudFormation stacks, region by region: one paginated DescribeStacks gives every stack's outputs, which are
// searched for secrets at once; only what is found (kind and output name) is kept. Outputs are shown in clear to
// anyone who may describe the stack, and exported ones to every stack of the region. Deleted stacks are not listed.
// Nested stacks are listed too; their root stack's termination protection covers them.

export const cloudformationStacksPart = regionalPart({
  part: 'cloudformationStacks',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeStacks({ client: session.client((config) => new CloudFormationClient(config), region) }, {}),
      [] as CloudFormationStack[],
      (into, page) => {
        for (const stack of page.Stacks ?? []) {
          if (!stack.StackName) continue;
          into.push({
            name: stack.StackName,
            id: stack.StackId ?? stack.StackName,
            region,
            outputSecrets: findInSettings(
              (stack.Outputs ?? []).map((o): [string, string] => [o.OutputKey ?? '', o.OutputValue ?? '']),
            ),
            terminationProtection: stack.EnableTerminationProtection ?? false,
            nested: Boolean(stack.ParentId),
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ stacks: slices.flat() }),
});
