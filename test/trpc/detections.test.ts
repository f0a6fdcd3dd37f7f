import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { callerFor, failure } from './caller';

// The detections procedures through createCaller: the same service as POST/GET/PATCH/DELETE /detections, with the
// same validation, roles and errors.

const sigma = readFileSync(path.join(__dirname, '../fixtures/sigma/aws_config_disable_recording.yml'), 'utf8');

let ctx: TestContext;
let owner: TestUser;
let member: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx, 'Detections Owner');
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
});
afterAll(() => ctx.close());

describe('detections', () => {
  it('uploads, lists, disables and deletes a Sigma rule', async () => {
    const api = callerFor(ctx, owner);
    const created = await api.detections.create({ name: 'Config off', sigma });
    expect(created).toMatchObject({ title: 'AWS Config Disabling Channel/Recorder', severity: 'HIGH', enabled: true });
    expect((await callerFor(ctx, member).detections.list()).detections.map((d) => d.name)).toEqual(['Config off']);
    const disabled = await api.detections.update({ detection_id: created.detection_id, patch: { enabled: false } });
    expect(disabled.enabled).toBe(false);
    await expect(api.detections.delete({ detection_id: created.detection_id })).resolves.toEqual({
      message: `Detection ${created.detection_id} deleted`,
    });
    expect((await api.detections.list()).count).toBe(0);
  });

  it('answers an unsupported rule and a member like REST: 400 naming the problem, 403', async () => {
    const api = callerFor(ctx, owner);
    const refused = await failure(
      api.detections.create({ name: 'Windows', sigma: sigma.replace('product: aws', 'product: windows') }),
    );
    expect(refused).toMatchObject({
      trpc: 'BAD_REQUEST',
      code: 'validation_failed',
      details: [{ field: 'sigma', message: "logsource product 'windows' is not supported: it must be aws" }],
    });
    expect(await failure(callerFor(ctx, member).detections.create({ name: 'Mine', sigma }))).toMatchObject({
      trpc: 'FORBIDDEN',
      code: 'forbidden',
    });
  });
});
