import { checkById } from '../../../domain/checks/catalog';
import {
  ACCOUNT,
  cleanInventory,
  daysAgo,
  outcome,
  part,
  unreadBy,
  withoutPart,
  withUnread,
} from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const ALICE = `arn:aws:iam::${ACCOUNT}:user/alice`;
const CERTIFICATE = `arn:aws:iam::${ACCOUNT}:server-certificate/legacy-elb`;
const ROOT_VIRTUAL = `arn:aws:iam::${ACCOUNT}:mfa/root-account-mfa-device`;

describe('iam governance checks', () => {
  describe('password policy length and reuse', () => {
    it.each([
      [13, ['password-policy@global']],
      [8, ['password-policy@global']],
      [14, 'pass'],
      [32, 'pass'],
    ])('minimum length %s: %j', (minimumLength, expected) => {
      const inventory = cleanInventory(NOW);
      part(inventory.passwordPolicy).policy!.minimumLength = minimumLength;
      expect(outcome('iam.password_policy_short', inventory)).toEqual(expected);
      // Length is no longer one of the weak policy's rules: one finding per rule broken.
      expect(outcome('iam.password_policy_weak', inventory)).toBe('pass');
    });

    it.each([
      [null, ['password-policy@global']],
      [0, ['password-policy@global']],
      [23, ['password-policy@global']],
      [24, 'pass'],
    ])('reuse prevention %s: %j', (reusePrevention, expected) => {
      const inventory = cleanInventory(NOW);
      part(inventory.passwordPolicy).policy!.reusePrevention = reusePrevention;
      expect(outcome('iam.password_policy_reuse_allowed', inventory)).toEqual(expected);
      expect(outcome('iam.password_policy_weak', inventory)).toBe('pass');
    });

    it('says how short or how little is remembered', () => {
      const inventory = cleanInventory(NOW);
      Object.assign(part(inventory.passwordPolicy).policy!, { minimumLength: 10, reusePrevention: 5 });
      const detail = (id: string) => {
        const result = checkById(id)!.evaluate(inventory, { now: NOW });
        return result.status === 'fail' ? result.resources[0]?.detail : result.status;
      };
      expect(detail('iam.password_policy_short')).toBe('The minimum password length is 10.');
      expect(detail('iam.password_policy_reuse_allowed')).toBe('Only the last 5 passwords are remembered.');
    });

    it("judges a missing policy by AWS's default (8 characters, reuse allowed): both fail, beside iam.password_policy_missing", () => {
      const inventory = cleanInventory(NOW);
      part(inventory.passwordPolicy).policy = null;
      expect(outcome('iam.password_policy_missing', inventory)).toEqual(['password-policy@global']);
      const details = ['iam.password_policy_short', 'iam.password_policy_reuse_allowed'].map((id) => {
        const result = checkById(id)!.evaluate(inventory, { now: NOW });
        return result.status === 'fail' ? result.resources.map((r) => r.detail) : result.status;
      });
      expect(details).toEqual([
        ["The account has no password policy: AWS's default applies: 8 characters are enough."],
        ["The account has no password policy: AWS's default applies: nothing prevents reuse."],
      ]);
    });
  });

  describe('permissions through groups', () => {
    it('names each user with policies of its own, managed or inline', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.iamPrincipals).users[0]!.directPolicies.push('ReadOnlyAccess', 's3-uploads');
      const result = checkById('iam.user_direct_policies')!.evaluate(inventory, { now: NOW });
      expect(result).toEqual({
        status: 'fail',
        resources: [{ resource: ALICE, detail: 'IAM user alice has policies of its own: ReadOnlyAccess, s3-uploads.' }],
      });
    });

    it('carries the users whose keys could not be listed: their policies were read all the same', () => {
      const inventory = withUnread(cleanInventory(NOW), 'iamPrincipals', [
        { kind: 'resource', scope: ALICE, reason: 'AccessDenied' },
      ]);
      expect(outcome('iam.user_direct_policies', inventory)).toBe('pass');
      expect(unreadBy('iam.user_direct_policies', inventory)).toEqual([ALICE]);
    });
  });

  describe('support role', () => {
    const withoutSupportRole = () => {
      const inventory = cleanInventory(NOW);
      part(inventory.iamPrincipals).roles[1]!.managedPolicies = [];
      return inventory;
    };

    it('passes when AWSSupportAccess is attached to a role', () => {
      const inventory = withoutSupportRole();
      expect(outcome('iam.no_support_role', inventory)).toEqual(['support-role@global']);
      part(inventory.iamPrincipals).roles[0]!.managedPolicies = ['AWSSupportAccess'];
      expect(outcome('iam.no_support_role', inventory)).toBe('pass');
    });

    it('fails when only a user or a group has AWSSupportAccess: CIS 2.15 asks for a role, and says who has it', () => {
      const inventory = withoutSupportRole();
      part(inventory.iamPrincipals).groups[0]!.managedPolicies.push('AWSSupportAccess');
      part(inventory.iamPrincipals).users[0]!.managedPolicies.push('AWSSupportAccess');
      expect(checkById('iam.no_support_role')!.evaluate(inventory, { now: NOW })).toEqual({
        status: 'fail',
        resources: [
          {
            resource: 'support-role',
            detail: 'No IAM role has AWSSupportAccess attached (only IAM user alice, IAM group developers).',
          },
        ],
      });
    });

    it('is not evaluated without the principals', () => {
      expect(outcome('iam.no_support_role', withoutPart(withoutSupportRole(), 'iamPrincipals'))).toBe('not_evaluated');
    });
  });

  describe('policies allowing full "*:*" administrative privileges (CIS 2.14)', () => {
    const CHECK = 'iam.full_admin_policy_attached';
    const DEVELOPERS = `arn:aws:iam::${ACCOUNT}:group/developers`;
    const APP_SERVER = `arn:aws:iam::${ACCOUNT}:role/app-server`;
    const withAdministratorAccess = () => {
      const inventory = cleanInventory(NOW);
      part(inventory.awsManagedPolicies).policies.push({
        name: 'AdministratorAccess',
        arn: 'arn:aws:iam::aws:policy/AdministratorAccess',
        fullAdmin: true,
      });
      return inventory;
    };

    it('fails every user, group and role with such a policy: AWS managed, customer managed or inline', () => {
      const inventory = withAdministratorAccess();
      part(inventory.iamPrincipals).groups[0]!.managedPolicies.push('AdministratorAccess');
      part(inventory.iamPrincipals).roles[0]!.fullAdminPolicies.push('deploy-everything');
      part(inventory.iamPrincipals).users[0]!.fullAdminPolicies.push('break-glass');
      expect(outcome(CHECK, inventory)).toEqual([`${ALICE}@global`, `${DEVELOPERS}@global`, `${APP_SERVER}@global`]);
      expect(checkById(CHECK)!.evaluate(inventory, { now: NOW })).toMatchObject({
        status: 'fail',
        resources: expect.arrayContaining([
          {
            resource: DEVELOPERS,
            detail:
              'IAM group developers has policies that allow every action on every resource: AdministratorAccess (AWS managed).',
          },
        ]),
      });
    });

    it('judges an AWS managed policy by its document, not by its name', () => {
      const inventory = withAdministratorAccess();
      // The clean account's ReadOnlyAccess, had its document allowed everything.
      part(inventory.awsManagedPolicies).policies[0]!.fullAdmin = true;
      expect(outcome(CHECK, inventory)).toEqual([`${DEVELOPERS}@global`]);
      // An AWS managed policy whose document allows less is no failure, whatever it is called.
      part(inventory.awsManagedPolicies).policies[0]!.fullAdmin = false;
      expect(outcome(CHECK, inventory)).toBe('pass');
    });

    it('names as unread, never passed, a holder of AWS managed policies whose documents could not be read', () => {
      const refused = withoutPart(cleanInventory(NOW), 'awsManagedPolicies');
      expect(outcome(CHECK, refused)).toBe('not_evaluated');
      expect(unreadBy(CHECK, refused)).toEqual([DEVELOPERS, `arn:aws:iam::${ACCOUNT}:role/incident-support`]);
      // One attached since the policies were listed is as unknown; a holder failing on another policy still fails.
      const attachedSince = cleanInventory(NOW);
      part(attachedSince.iamPrincipals).users[0]!.managedPolicies.push('AdministratorAccess');
      expect(outcome(CHECK, attachedSince)).toBe('pass');
      expect(unreadBy(CHECK, attachedSince)).toEqual([ALICE]);
      part(attachedSince.iamPrincipals).users[0]!.fullAdminPolicies.push('break-glass');
      expect(outcome(CHECK, attachedSince)).toEqual([`${ALICE}@global`]);
      expect(unreadBy(CHECK, attachedSince)).toEqual([]);
    });

    it('is not evaluated without the principals', () => {
      expect(outcome(CHECK, withoutPart(withAdministratorAccess(), 'iamPrincipals'))).toBe('not_evaluated');
    });
  });

  describe('CloudShell full access', () => {
    it('names every user, group and role that has it', () => {
      const inventory = cleanInventory(NOW);
      const { users, groups, roles } = part(inventory.iamPrincipals);
      for (const holder of [users[0]!, groups[0]!, roles[0]!]) holder.managedPolicies.push('AWSCloudShellFullAccess');
      expect(outcome('iam.cloudshell_full_access', inventory)).toEqual([
        `${ALICE}@global`,
        `arn:aws:iam::${ACCOUNT}:group/developers@global`,
        `arn:aws:iam::${ACCOUNT}:role/app-server@global`,
      ]);
    });
  });

  describe('expired server certificates', () => {
    it.each([
      [daysAgo(NOW, -1), 'pass'],
      [NOW, 'pass'],
      [daysAgo(NOW, 0.001), [`${CERTIFICATE}@global`]],
      [daysAgo(NOW, 400), [`${CERTIFICATE}@global`]],
    ])('a certificate that expires at %s: %j', (expiresAt, expected) => {
      const inventory = cleanInventory(NOW);
      part(inventory.serverCertificates).certificates[0]!.expiresAt = expiresAt;
      expect(outcome('iam.expired_server_certificates', inventory)).toEqual(expected);
    });

    it('is not evaluated when the certificates could not be listed', () => {
      expect(outcome('iam.expired_server_certificates', withoutPart(cleanInventory(NOW), 'serverCertificates'))).toBe(
        'not_evaluated',
      );
    });
  });

  describe('root hardware MFA', () => {
    it("fails when the root user's MFA is a virtual device, and names it", () => {
      const inventory = cleanInventory(NOW);
      part(inventory.rootVirtualMfa).serialNumber = ROOT_VIRTUAL;
      expect(checkById('iam.root_virtual_mfa')!.evaluate(inventory, { now: NOW })).toEqual({
        status: 'fail',
        resources: [{ resource: 'root', detail: `The root user's MFA device is the virtual device ${ROOT_VIRTUAL}.` }],
      });
    });

    it.each([
      ['has no MFA (iam.root_mfa_disabled reports it)', { rootMfaEnabled: false }],
      ['has no password (centralized root access)', { rootPasswordPresent: false }],
    ])('does not apply when the root user %s, even without the device list', (_, summary) => {
      const inventory = withoutPart(cleanInventory(NOW), 'rootVirtualMfa');
      Object.assign(part(inventory.iamSummary), summary);
      expect(outcome('iam.root_virtual_mfa', inventory)).toBe('pass');
    });

    it('is not evaluated without the account summary, or without the device list when root has MFA', () => {
      expect(outcome('iam.root_virtual_mfa', withoutPart(cleanInventory(NOW), 'iamSummary'))).toBe('not_evaluated');
      expect(outcome('iam.root_virtual_mfa', withoutPart(cleanInventory(NOW), 'rootVirtualMfa'))).toBe('not_evaluated');
    });
  });
});
