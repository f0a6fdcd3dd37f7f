import type { Instance } from '../../../domain/scans/inventory';
import { cleanInventory, daysAgo, hoursAgo, outcome, part, WELL_RUN_INSTANCE } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

function withInstance(changes: Partial<Instance>) {
  const inventory = cleanInventory(NOW);
  part(inventory.instances).instances.push({
    id: 'i-0new',
    region: 'us-east-1',
    type: 't3.micro',
    state: 'running',
    launchedAt: daysAgo(NOW, 30),
    ...WELL_RUN_INSTANCE,
    ...changes,
  });
  return inventory;
}

describe('threat checks', () => {
  it.each([
    ['p5.48xlarge', true],
    ['g4dn.xlarge', true],
    ['g5g.xlarge', true],
    ['gr6.4xlarge', true],
    ['inf2.xlarge', true],
    ['trn1.2xlarge', true],
    ['dl1.24xlarge', true],
    ['f1.2xlarge', true],
    ['c5.metal', true],
    ['m7i.metal-24xl', true],
    ['m5.24xlarge', true],
    ['r6i.32xlarge', true],
    ['m5.16xlarge', false],
    ['t3.micro', false],
    ['m7g.xlarge', false],
    ['c7gn.16xlarge', false],
    ['x2gd.large', false],
  ])('counts %s as high-end: %s', (type, highEnd) => {
    expect(outcome('threat.gpu_instance_running', withInstance({ type }))).toEqual(
      highEnd ? ['i-0new@us-east-1'] : 'pass',
    );
  });

  it.each(['stopped', 'terminated', 'stopping'])('ignores a %s GPU instance', (state) => {
    expect(outcome('threat.gpu_instance_running', withInstance({ type: 'p4d.24xlarge', state }))).toBe('pass');
  });

  it('counts a pending GPU instance', () => {
    expect(outcome('threat.gpu_instance_running', withInstance({ type: 'g5.xlarge', state: 'pending' }))).toEqual([
      'i-0new@us-east-1',
    ]);
  });

  describe('new instance in a region the account does not use', () => {
    const region = 'ap-southeast-3';

    it.each([
      ['launched 6 days ago in a new region', { region, launchedAt: daysAgo(NOW, 6) }, [`i-0new@${region}`]],
      ['launched 8 days ago', { region, launchedAt: daysAgo(NOW, 8) }, 'pass'],
      [
        'launched in a trail home region with no other instance',
        { region: 'us-east-1', launchedAt: hoursAgo(NOW, 1) },
        'pass',
      ],
      ['stopped', { region, launchedAt: hoursAgo(NOW, 1), state: 'stopped' }, 'pass'],
    ])('%s: %j', (_, changes, expected) => {
      expect(outcome('threat.instance_in_unused_region', withInstance(changes))).toEqual(expected);
    });

    it('treats a region with an older instance as in use, unless that one is terminated', () => {
      const inventory = withInstance({ region, launchedAt: hoursAgo(NOW, 1) });
      const old = {
        id: 'i-0old',
        region,
        type: 't3.micro',
        state: 'stopped',
        launchedAt: daysAgo(NOW, 60),
        ...WELL_RUN_INSTANCE,
      };
      part(inventory.instances).instances.push(old);
      expect(outcome('threat.instance_in_unused_region', inventory)).toBe('pass');
      old.state = 'terminated';
      expect(outcome('threat.instance_in_unused_region', inventory)).toEqual([`i-0new@${region}`]);
    });

    it('flags every new instance of a burst in a fresh region', () => {
      const inventory = withInstance({ region, launchedAt: hoursAgo(NOW, 2) });
      part(inventory.instances).instances.push({
        id: 'i-0new2',
        region,
        type: 'c5.large',
        state: 'running',
        launchedAt: hoursAgo(NOW, 1),
        ...WELL_RUN_INSTANCE,
      });
      expect(outcome('threat.instance_in_unused_region', inventory)).toEqual([`i-0new@${region}`, `i-0new2@${region}`]);
    });
  });

  it('considers users created more than 24 hours ago established', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.iamPrincipals).users[0]!.createdAt = hoursAgo(NOW, 25);
    expect(outcome('threat.iam_user_created_recently', inventory)).toBe('pass');
    part(inventory.iamPrincipals).users[0]!.createdAt = hoursAgo(NOW, 23);
    expect(outcome('threat.iam_user_created_recently', inventory)).toEqual([
      `${part(inventory.iamPrincipals).users[0]!.arn}@global`,
    ]);
  });

  it('ignores a new key that is already inactive', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.iamPrincipals).users[0]!.accessKeys.push({
      id: 'AKIANEW',
      status: 'Inactive',
      createdAt: hoursAgo(NOW, 1),
    });
    expect(outcome('threat.access_key_created_recently', inventory)).toBe('pass');
  });
});
