import { createSandboxProvider, SANDBOX_FAILING_ACCOUNT_ID } from '../../cloud/sandbox/provider';
import { RoleUnavailableError } from '../../cloud/types';
import { evaluateInventory } from '../../domain/checks/evaluate';

const target = (awsAccountId: string) => ({
  tenantId: 'tnt_test',
  awsAccountId,
  roleName: 'SentinelReadOnly',
  externalId: 'x'.repeat(32),
});

describe('sandbox provider', () => {
  const sandbox = createSandboxProvider();

  it('connects any ordinary account id', async () => {
    await expect(sandbox.checkAccess(target('123456789012'))).resolves.toEqual({ ok: true });
  });

  it('fails the documented demo account with a reason saying what it is', async () => {
    const check = await sandbox.checkAccess(target(SANDBOX_FAILING_ACCOUNT_ID));
    expect(check).toMatchObject({ ok: false, code: 'role_missing' });
    expect(check.ok ? '' : check.reason).toMatch(/sandbox.*demo.*any other 12-digit account/);
  });

  it('trusts the configured account, else the placeholder one', async () => {
    await expect(sandbox.sentinelAccountId()).resolves.toBe('000000000000');
    await expect(createSandboxProvider({ sentinelAccountId: '111122223333' }).sentinelAccountId()).resolves.toBe(
      '111122223333',
    );
  });

  it('collects a simulated inventory at the time of its clock', async () => {
    const at = new Date('2025-06-10T09:00:00.000Z');
    const steps: string[] = [];
    const inventory = await createSandboxProvider({ now: () => at }).collectInventory(target('123456789012'), {
      onProgress: (progress) => steps.push(progress.last),
    });
    expect(inventory.collectedAt).toBe(at.toISOString());
    expect(steps).toEqual(['sandbox']);
  });

  it('has a healthy event forwarder in every enabled region when one is expected, and reads none otherwise', async () => {
    const endpoint = 'http://localhost:3000/ingest/aws/events';
    const expected = await sandbox.collectInventory(target('123456789012'), { eventForwarder: { endpoint } });
    const forwarder = expected.eventForwarder.status === 'ok' ? expected.eventForwarder.value : null;
    expect(forwarder?.expectedEndpoint).toBe(endpoint);
    expect(forwarder?.regions.map((r) => r.region)).toEqual(expected.regions.enabled);
    const evaluation = evaluateInventory(expected, { now: expected.collectedAt });
    expect(evaluation.outcomes.find((o) => o.checkId === 'detection.event_forwarder_broken')?.status).toBe('passed');

    const none = await sandbox.collectInventory(target('123456789012'));
    expect(none.eventForwarder).toEqual({ status: 'ok', value: { expectedEndpoint: null, regions: [] } });
  });

  it('describes the same demo organization for a management account every time: members in two OUs, ids of their own', async () => {
    const described = await sandbox.describeOrganization(target('111122223333'));
    expect(await sandbox.describeOrganization(target('111122223333'))).toEqual(described);
    if (!described.ok) throw new Error(described.reason);
    expect(described.organization.managementAccountId).toBe('111122223333');
    const members = described.accounts.filter((a) => a.awsAccountId !== '111122223333');
    expect(members.length).toBeGreaterThanOrEqual(3);
    expect(new Set(members.map((a) => a.ouPath))).toEqual(new Set(['Root/Production', 'Root/Development']));
    expect(members.every((a) => /^[0-9]{12}$/.test(a.awsAccountId) && a.status === 'ACTIVE')).toBe(true);
    // Another organization's members are other accounts.
    const other = await sandbox.describeOrganization(target('444455556666'));
    const ids = new Set(members.map((a) => a.awsAccountId));
    expect(other.ok && other.accounts.some((a) => ids.has(a.awsAccountId))).toBe(false);
  });

  it('fails the failing demo account as a management account too', async () => {
    expect(await sandbox.describeOrganization(target(SANDBOX_FAILING_ACCOUNT_ID))).toMatchObject({
      ok: false,
      code: 'access_denied',
    });
  });

  it('cannot assume the role of the failing demo account', async () => {
    const collecting = sandbox.collectInventory(target(SANDBOX_FAILING_ACCOUNT_ID));
    await expect(collecting).rejects.toBeInstanceOf(RoleUnavailableError);
    await expect(collecting).rejects.toThrow(/sandbox.*demo.*any other 12-digit account/);
  });
});
