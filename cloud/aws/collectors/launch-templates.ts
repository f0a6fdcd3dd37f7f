import {
  DescribeLaunchTemplateVersionsCommand,
  type LaunchTemplateVersion as AwsVersion,
  paginateDescribeLaunchTemplates,
} from '@aws-sdk/client-ec2';
import type { LaunchTemplate, LaunchTemplateVersion } from '../../../domain/scans/compute';
import type { Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { ec2In } from './ec2';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';
import { userDataSecrets } from './user-data';

// EC2 launch templates, region by region: DescribeLaunchTemplates, then one DescribeLaunchTemplateVersions per
// template for its default and latest versions (what a launch that names no version, or $Latest, uses). Older
// versions are left out: a launch must name them. The versions' user data is searched for secrets as it is read.

const PER_TEMPLATE_CONCURRENCY = 4;

interface Slice {
  templates: LaunchTemplate[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';

function versionOf(v: AwsVersion): LaunchTemplateVersion {
  const data = v.LaunchTemplateData ?? {};
  return {
    number: v.VersionNumber ?? 0,
    isDefault: v.DefaultVersion === true,
    metadata: {
      httpTokens: data.MetadataOptions?.HttpTokens ?? null,
      httpEndpoint: data.MetadataOptions?.HttpEndpoint ?? null,
    },
    publicIp: (data.NetworkInterfaces ?? []).some((n) => n.AssociatePublicIpAddress === true),
    secrets: userDataSecrets(data.UserData),
  };
}

export const launchTemplatesPart = regionalPart({
  part: 'launchTemplates',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const ec2 = ec2In(session, region);
    const listed = await foldPages(
      paginateDescribeLaunchTemplates({ client: ec2 }, {}),
      [] as { id: string; name: string }[],
      (into, page) => {
        for (const t of page.LaunchTemplates ?? [])
          if (t.LaunchTemplateId)
            into.push({ id: t.LaunchTemplateId, name: t.LaunchTemplateName ?? t.LaunchTemplateId });
        return into;
      },
    );
    const unread: Unread[] = [];
    const templates = await mapLimit({
      items: listed,
      limit: PER_TEMPLATE_CONCURRENCY,
      run: async ({ id, name }): Promise<LaunchTemplate | null> => {
        try {
          const { LaunchTemplateVersions = [] } = await ec2.send(
            new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: id, Versions: ['$Default', '$Latest'] }),
          );
          const versions = [...new Map(LaunchTemplateVersions.map((v) => [v.VersionNumber, versionOf(v)])).values()];
          versions.sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.number - b.number);
          return { id, name, region, versions };
        } catch (err) {
          if (isAbsent(err, 'InvalidLaunchTemplateId.NotFound')) return null; // deleted since it was listed
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: id, reason: (err as ReadFailure).reason });
          return null;
        }
      },
    });
    return { templates: templates.filter((t): t is LaunchTemplate => t !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ templates: slices.flatMap((s) => s.templates) }),
});
