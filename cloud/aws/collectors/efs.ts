import { EFSClient, paginateDescribeFileSystems } from '@aws-sdk/client-efs';
import type { EfsFileSystem } from '../../../domain/scans/inventory';
import { foldPages, type ReadContext, regionalPart } from './reader';

// EFS file systems, region by region: DescribeFileSystems says whether each is encrypted at rest (which can only
// be chosen when the file system is created).

export const efsFileSystemsPart = regionalPart({
  part: 'efsFileSystems',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeFileSystems({ client: session.client((config) => new EFSClient(config), region) }, {}),
      [] as EfsFileSystem[],
      (into, page) => {
        for (const fs of page.FileSystems ?? []) {
          if (fs.FileSystemId)
            into.push({ id: fs.FileSystemId, region, name: fs.Name ?? null, encrypted: fs.Encrypted ?? false });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ fileSystems: slices.flat() }),
});
