import type { Instance, Inventory } from '../scans/inventory';
import type { Exposures, Workload } from './exposures';

// What an exposed resource runs as: an instance's role, through its instance profile, and whether its metadata
// service answers IMDSv1. Load balancer targets are named by id or ARN: this finds what they are.

/** The role ARN of each instance profile the inventory can tell: null for a profile that holds none. */
function profileRoles(inventory: Inventory): Map<string, string | null> {
  const roles = new Map<string, string | null>();
  const authorization = inventory.iamAuthorization;
  const principals = inventory.iamPrincipals;
  const roleArnByName = new Map<string, string>();
  if (principals.status === 'ok') for (const role of principals.value.roles) roleArnByName.set(role.name, role.arn);
  if (authorization.status === 'ok')
    for (const role of authorization.value.roles) {
      roleArnByName.set(role.name, role.arn);
      for (const profile of role.instanceProfiles) roles.set(profile, role.arn);
    }
  const profiles = inventory.instanceProfiles;
  if (profiles.status === 'ok')
    for (const profile of profiles.value.profiles) {
      if (roles.has(profile.arn)) continue;
      const [name] = profile.roles;
      // A role left out of the principals (a service role) is named in the profile's account, at the root path.
      roles.set(
        profile.arn,
        name === undefined
          ? null
          : (roleArnByName.get(name) ?? profile.arn.replace(/:instance-profile\/.*$/, `:role/${name}`)),
      );
    }
  return roles;
}

/** Whether the instance's metadata service answers IMDSv1 requests; undefined when EC2 did not report it. */
function answersImdsV1(instance: Instance): boolean | undefined {
  if (!instance.metadata) return undefined;
  return instance.metadata.httpEndpoint === 'enabled' && instance.metadata.httpTokens === 'optional';
}

const nameInArn = (arn: string) => arn.split(/[:/]/).filter(Boolean).at(-2) ?? arn;

export interface WorkloadLookup {
  instance(instance: Instance): Workload;
  /** A load balancer target as a workload; null for what is not named by a resource (an IP address target). */
  target(id: string, region: string): Workload | null;
}

export function workloadLookup(inventory: Inventory, exposures: Exposures): WorkloadLookup {
  const roles = profileRoles(inventory);
  const instances = new Map(
    inventory.instances.status === 'ok'
      ? inventory.instances.value.instances.map((i) => [`${i.region}/${i.id}`, i] as const)
      : [],
  );
  const functions = new Map(
    inventory.lambdaFunctions.status === 'ok'
      ? inventory.lambdaFunctions.value.functions.map((f) => [f.arn, f] as const)
      : [],
  );
  const instanceWorkload = (instance: Instance): Workload => {
    const profile = instance.instanceProfileArn;
    const role = profile === null ? null : roles.get(profile);
    if (role === undefined)
      exposures.notRead({
        kind: 'resource',
        scope: instance.id,
        reason: `The role of its instance profile ${profile} could not be read: it is shown without one.`,
      });
    const imdsV1 = answersImdsV1(instance);
    return {
      resource: instance.id,
      kind: 'instance',
      label: instance.id,
      region: instance.region,
      roleArn: role ?? null,
      ...(imdsV1 === undefined ? {} : { imdsV1 }),
    };
  };
  return {
    instance: instanceWorkload,
    target(id, region) {
      if (id.startsWith('i-')) {
        const instance = instances.get(`${region}/${id}`);
        return instance
          ? instanceWorkload(instance)
          : { resource: id, kind: 'instance', label: id, region, roleArn: null };
      }
      if (id.includes(':lambda:')) {
        const fn = functions.get(id);
        return {
          resource: id,
          kind: 'function',
          label: fn?.name ?? id.split(':').at(-1) ?? id,
          region,
          roleArn: fn?.roleArn ?? null,
        };
      }
      if (id.includes(':loadbalancer/'))
        return { resource: id, kind: 'load_balancer', label: nameInArn(id), region, roleArn: null };
      return null;
    },
  };
}
