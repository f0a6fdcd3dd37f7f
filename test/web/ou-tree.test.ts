import { type OuNode, ouTree } from '../../web/src/ou-tree';

// The organization page's tree: accounts nested by their OU path, as the AWS console shows them.
interface Member {
  aws_account_id: string;
  name: string | null;
  ou_path: string | null;
}
const member = (aws_account_id: string, ou_path: string | null, name: string | null = null): Member => ({
  aws_account_id,
  name,
  ou_path,
});

/** The tree as nested plain values: OU name, count, accounts and children. */
function shape(node: OuNode<Member>): unknown {
  return {
    ou: node.name,
    path: node.path,
    total: node.total,
    accounts: node.accounts.map((a) => a.aws_account_id),
    children: node.children.map(shape),
  };
}

describe('ouTree', () => {
  it("nests accounts under their OUs, counting each OU's accounts with those below it, names in order", () => {
    const tree = ouTree([
      member('111111111111', 'Root/Workloads/Prod', 'payments'),
      member('222222222222', 'Root', 'management'),
      member('333333333333', 'Root/Workloads/Prod', 'api'),
      member('444444444444', 'Root/Workloads/Dev', 'sandbox'),
      member('555555555555', 'Root/Security', null),
      member('666666666666', 'Root/Workloads'),
    ]);
    expect(shape(tree)).toEqual({
      ou: 'Root',
      path: 'Root',
      total: 6,
      accounts: ['222222222222'],
      children: [
        { ou: 'Security', path: 'Root/Security', total: 1, accounts: ['555555555555'], children: [] },
        {
          ou: 'Workloads',
          path: 'Root/Workloads',
          total: 4,
          accounts: ['666666666666'],
          children: [
            { ou: 'Dev', path: 'Root/Workloads/Dev', total: 1, accounts: ['444444444444'], children: [] },
            {
              ou: 'Prod',
              path: 'Root/Workloads/Prod',
              total: 2,
              accounts: ['333333333333', '111111111111'],
              children: [],
            },
          ],
        },
      ],
    });
  });

  it('keeps an OU apart from a same-named OU elsewhere, and puts an account without a path at the root', () => {
    const tree = ouTree([
      member('111111111111', 'r-ab12/Prod/Apps'),
      member('222222222222', 'r-ab12/Dev/Apps'),
      member('333333333333', null),
    ]);
    expect(tree.name).toBe('r-ab12');
    expect(tree.accounts.map((a) => a.aws_account_id)).toEqual(['333333333333']);
    expect(tree.children.map((c) => c.children.map((g) => g.path))).toEqual([
      ['r-ab12/Dev/Apps'],
      ['r-ab12/Prod/Apps'],
    ]);
  });

  it('is an empty root for an organization with no accounts listed yet', () => {
    expect(shape(ouTree([]))).toEqual({ ou: 'Root', path: 'Root', total: 0, accounts: [], children: [] });
  });
});
