import type { Instance } from '../../../domain/scans/inventory';
import { checkById } from '../../../domain/checks/catalog';
import {
  cleanInventory,
  daysAgo,
  hoursAgo,
  outcome,
  part,
  WELL_RUN_INSTANCE,
  withoutPart,
} from '../../helpers/inventory';

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

  describe('instance in a region the account does not use', () => {
    const region = 'ap-southeast-3';
    const CHECK = 'threat.instance_in_unused_region';

    describe('before any scan learned the baseline: this inventory shows it', () => {
      it.each([
        ['launched 6 days ago in a new region', { region, launchedAt: daysAgo(NOW, 6) }, [`i-0new@${region}`]],
        ['launched 8 days ago: history the first scan learns', { region, launchedAt: daysAgo(NOW, 8) }, 'pass'],
        [
          'launched in a trail home region with no other instance',
          { region: 'us-east-1', launchedAt: hoursAgo(NOW, 1) },
          'pass',
        ],
        ['stopped', { region, launchedAt: hoursAgo(NOW, 1), state: 'stopped' }, 'pass'],
      ])('%s: %j', (_, changes, expected) => {
        expect(outcome(CHECK, withInstance(changes))).toEqual(expected);
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
        expect(outcome(CHECK, inventory)).toBe('pass');
        old.state = 'terminated';
        expect(outcome(CHECK, inventory)).toEqual([`i-0new@${region}`]);
      });

      it("treats the regions of the account's databases and file systems as in use", () => {
        const inventory = withInstance({ region, launchedAt: hoursAgo(NOW, 1) });
        part(inventory.efsFileSystems).fileSystems.push({ id: 'fs-0far', region, name: null, encrypted: true });
        expect(outcome(CHECK, inventory)).toBe('pass');
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
        expect(outcome(CHECK, inventory)).toEqual([`i-0new@${region}`, `i-0new2@${region}`]);
      });
    });

    describe('once learned, only the baseline says where the account works', () => {
      const learned = { regions: ['eu-west-1', 'us-east-1'], learnedAt: daysAgo(NOW, 60) };

      it.each([1, 8, 30, 400])('flags an instance outside it launched %i days ago: age brings no region in', (days) => {
        const inventory = withInstance({ region, launchedAt: daysAgo(NOW, days) });
        expect(outcome(CHECK, inventory, { regionBaseline: learned })).toEqual([`i-0new@${region}`]);
      });

      it('keeps flagging it beside an older instance there, a database or a new trail home', () => {
        const inventory = withInstance({ region, launchedAt: daysAgo(NOW, 30) });
        part(inventory.instances).instances.push({
          id: 'i-0old',
          region,
          type: 't3.micro',
          state: 'running',
          launchedAt: daysAgo(NOW, 300),
          ...WELL_RUN_INSTANCE,
        });
        part(inventory.efsFileSystems).fileSystems.push({ id: 'fs-0far', region, name: null, encrypted: true });
        part(inventory.cloudtrail).trails[0]!.homeRegion = region;
        expect(outcome(CHECK, inventory, { regionBaseline: learned })).toEqual([
          `i-0new@${region}`,
          `i-0old@${region}`,
        ]);
      });

      it('passes once a member accepted the region, and ignores instances that do not run', () => {
        const inventory = withInstance({ region, launchedAt: daysAgo(NOW, 30) });
        const accepted = { ...learned, regions: [...learned.regions, region] };
        expect(outcome(CHECK, inventory, { regionBaseline: accepted })).toBe('pass');
        part(inventory.instances).instances.at(-1)!.state = 'stopped';
        expect(outcome(CHECK, inventory, { regionBaseline: learned })).toBe('pass');
      });

      it('needs the instances only: the trails no longer decide anything', () => {
        const inventory = withoutPart(withInstance({ region, launchedAt: daysAgo(NOW, 30) }), 'cloudtrail');
        expect(outcome(CHECK, inventory, { regionBaseline: learned })).toEqual([`i-0new@${region}`]);
        expect(outcome(CHECK, withoutPart(inventory, 'instances'), { regionBaseline: learned })).toBe('not_evaluated');
      });
    });
  });

  describe('IAM users and access keys created since the previous scan', () => {
    const USER = 'threat.iam_user_created_recently';
    const KEY = 'threat.access_key_created_recently';
    const newUser = (createdAt: string) => {
      const inventory = cleanInventory(NOW);
      part(inventory.iamPrincipals).users[0]!.createdAt = createdAt;
      return { inventory, arn: `${part(inventory.iamPrincipals).users[0]!.arn}@global` };
    };
    const newKey = (createdAt: string, status: 'Active' | 'Inactive' = 'Active') => {
      const inventory = cleanInventory(NOW);
      part(inventory.iamPrincipals).users[0]!.accessKeys.push({ id: 'AKIANEW', status, createdAt });
      return inventory;
    };

    it('flags a user created between two scans three days apart, and not one created before the previous scan', () => {
      const previousScanAt = daysAgo(NOW, 3);
      const { inventory, arn } = newUser(daysAgo(NOW, 2));
      expect(outcome(USER, inventory, { previousScanAt })).toEqual([arn]);
      expect(outcome(USER, newUser(hoursAgo(previousScanAt, 1)).inventory, { previousScanAt })).toBe('pass');
    });

    it('flags a user created after a previous scan of weeks ago, which a 24-hour window missed', () => {
      const { inventory, arn } = newUser(daysAgo(NOW, 10));
      expect(outcome(USER, inventory, { previousScanAt: daysAgo(NOW, 21) })).toEqual([arn]);
      expect(outcome(USER, inventory)).toBe('pass');
    });

    it('on the first scan, flags users of the last 24 hours only', () => {
      expect(outcome(USER, newUser(hoursAgo(NOW, 25)).inventory)).toBe('pass');
      const { inventory, arn } = newUser(hoursAgo(NOW, 23));
      expect(outcome(USER, inventory, { previousScanAt: null })).toEqual([arn]);
    });

    it('flags an active key created since the previous scan, not an older one', () => {
      const previousScanAt = hoursAgo(NOW, 6);
      expect(outcome(KEY, newKey(hoursAgo(NOW, 5)), { previousScanAt })).toEqual(['AKIANEW@global']);
      expect(outcome(KEY, newKey(hoursAgo(NOW, 7)), { previousScanAt })).toBe('pass');
      expect(outcome(KEY, newKey(daysAgo(NOW, 4)), { previousScanAt: daysAgo(NOW, 5) })).toEqual(['AKIANEW@global']);
    });

    it('ignores a new key that is already inactive', () => {
      expect(outcome(KEY, newKey(hoursAgo(NOW, 1), 'Inactive'))).toBe('pass');
      expect(outcome(KEY, newKey(hoursAgo(NOW, 1), 'Inactive'), { previousScanAt: daysAgo(NOW, 3) })).toBe('pass');
    });

    it('says so in their titles, and their signals wait for a review', () => {
      expect(checkById(USER)).toMatchObject({ title: 'IAM user created since the previous scan', review: true });
      expect(checkById(KEY)).toMatchObject({ title: 'Access key created since the previous scan', review: true });
      expect(checkById('threat.instance_in_unused_region')?.review).toBe(true);
      expect(checkById('threat.gpu_instance_running')?.review).toBeUndefined();
    });
  });
});
