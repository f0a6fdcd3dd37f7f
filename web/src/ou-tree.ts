/** An organizational unit: its accounts and the OUs under it, both in name order. */
export interface OuNode<A> {
  name: string;
  /** The OU's path from the root, 'Root/Workloads/Prod'. */
  path: string;
  accounts: A[];
  children: OuNode<A>[];
  /** Accounts in this OU and every OU under it. */
  total: number;
}

/**
 * Nests an organization's accounts by their OU path ('Root/Workloads/Prod'): the tree the AWS console shows.
 * Every path starts at the root, whatever its first segment is called; an account without a path sits at the root.
 */
export function ouTree<A extends { ou_path: string | null; name: string | null; aws_account_id: string }>(
  accounts: readonly A[],
): OuNode<A> {
  const segments = (a: A) => (a.ou_path ?? '').split('/').filter(Boolean);
  const rootName = accounts.map(segments).find((s) => s.length > 0)?.[0] ?? 'Root';
  const root: OuNode<A> = { name: rootName, path: rootName, accounts: [], children: [], total: 0 };
  for (const account of accounts) {
    let node = root;
    node.total += 1;
    for (const name of segments(account).slice(1)) {
      let child = node.children.find((c) => c.name === name);
      if (!child) {
        child = { name, path: `${node.path}/${name}`, accounts: [], children: [], total: 0 };
        node.children.push(child);
      }
      child.total += 1;
      node = child;
    }
    node.accounts.push(account);
  }
  sortTree(root);
  return root;
}

function sortTree<A extends { name: string | null; aws_account_id: string }>(node: OuNode<A>): void {
  const label = (a: A) => a.name ?? a.aws_account_id;
  node.accounts.sort((a, b) => label(a).localeCompare(label(b)));
  node.children.sort((a, b) => a.name.localeCompare(b.name));
  node.children.forEach(sortTree);
}
