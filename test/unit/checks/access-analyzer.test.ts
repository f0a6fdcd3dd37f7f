import { checkById } from '../../../domain/checks/catalog';
import { cleanInventory, outcome, part, unreadBy, withoutPart, withUnread } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const ID = 'iam.access_analyzer_off';

describe('IAM Access Analyzer in every enabled region', () => {
  it('fails a region with no analyzer, or only analyzers that do not look at external access or are not active', () => {
    const inventory = cleanInventory(NOW);
    const [east, west] = part(inventory.accessAnalyzers).regions;
    east!.analyzers = [];
    west!.analyzers = [
      { name: 'unused-access', type: 'ACCOUNT_UNUSED_ACCESS', status: 'ACTIVE' },
      { name: 'external-access', type: 'ACCOUNT', status: 'CREATING' },
    ];
    expect(outcome(ID, inventory)).toEqual(['access-analyzer@us-east-1', 'access-analyzer@us-west-2']);
    const result = checkById(ID)!.evaluate(inventory, { now: NOW });
    expect(result.status === 'fail' && result.resources.map((r) => r.detail)).toEqual([
      'IAM Access Analyzer has no analyzer in us-east-1.',
      'IAM Access Analyzer has no active external access analyzer in us-west-2 (only unused-access: ACCOUNT_UNUSED_ACCESS, ACTIVE; ' +
        'external-access: ACCOUNT, CREATING).',
    ]);
  });

  it('passes a region covered by an organization analyzer', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.accessAnalyzers).regions[0]!.analyzers = [{ name: 'org', type: 'ORGANIZATION', status: 'ACTIVE' }];
    expect(outcome(ID, inventory)).toBe('pass');
  });

  it('is not evaluated without the part, and names the regions it could not read', () => {
    expect(outcome(ID, withoutPart(cleanInventory(NOW), 'accessAnalyzers'))).toBe('not_evaluated');
    const inventory = withUnread(cleanInventory(NOW), 'accessAnalyzers', [
      { kind: 'region', scope: 'ap-south-1', reason: 'SCP' },
    ]);
    expect(outcome(ID, inventory)).toBe('pass');
    expect(unreadBy(ID, inventory)).toEqual(['ap-south-1']);
  });
});
