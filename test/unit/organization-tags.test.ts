import { mergeTags, organizationTags } from '../../domain/accounts/organizations';

describe('the tags an organization keeps on its accounts', () => {
  it('names the OU path and the account, each within the 64 characters a tag may have', () => {
    expect(organizationTags({ ouPath: 'Root/Workloads/Prod', name: 'prod-api' })).toEqual([
      'ou:Root/Workloads/Prod',
      'name:prod-api',
    ]);
    const deep = `Root/${'Nested/'.repeat(20)}Leaf`;
    const [ou] = organizationTags({ ouPath: deep, name: 'x' });
    expect(ou).toHaveLength(64);
    expect(deep.startsWith(ou!.slice('ou:'.length))).toBe(true);
  });

  it('replaces the OU and name tags when the account moves or is renamed, and keeps every other tag', () => {
    const current = ['team-payments', 'ou:Root/Workloads/Prod', 'name:prod-db', 'fleet'];
    expect(mergeTags({ current, extra: ['fleet'], ouPath: 'Root/Sandbox', name: 'old-db' })).toEqual([
      'team-payments',
      'fleet',
      'ou:Root/Sandbox',
      'name:old-db',
    ]);
  });

  it('changes nothing when nothing moved', () => {
    const current = ['fleet', 'ou:Root', 'name:late'];
    expect(mergeTags({ current, extra: ['fleet'], ouPath: 'Root', name: 'late' })).toEqual(current);
  });
});
