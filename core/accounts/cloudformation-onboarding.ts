import { accountRoleTemplate, EXTERNAL_ID_PARAMETER, quickCreateUrl } from '../../domain/onboarding/cloudformation';
import {
  eventForwarderTemplate,
  FORWARDER_PARAMETERS,
  type ForwarderSetup,
} from '../../domain/onboarding/forwarder-templates';
import { GLOBAL_EVENTS_REGION } from '../../domain/events/forwarding-rules';
import type { RoleSetup } from '../../domain/onboarding/role';
import type { AppDeps } from '../deps';

/** The account role template's name in the template bucket (its key adds the version). */
export const ACCOUNT_ROLE_TEMPLATE = 'sentinel-account-role';
/** The event forwarder template's name in the template bucket, and the stack its quick-create link names. */
export const EVENT_FORWARDER_TEMPLATE = 'sentinel-event-forwarder';
export const EVENT_FORWARDER_STACK = 'SentinelEventForwarder';

// The same for every tenant and every deployment (the key and the endpoint are parameters): built once.
const FORWARDER_TEMPLATE = eventForwarderTemplate();

type Deps = Pick<AppDeps, 'templates' | 'log'>;

/**
 * Publishes a template and answers the console link to create its stack. Null without a template bucket, or if
 * publishing fails: the connect still succeeds (the template and the other ways are in the answer), so S3 never
 * stands between a customer and connecting.
 */
async function publishedLink(
  { templates, log }: Deps,
  name: string,
  body: string,
  link: (templateUrl: string, bucketRegion: string) => string,
) {
  if (!templates) return null;
  try {
    return link(await templates.publish({ name, body }), templates.region);
  } catch (err) {
    log.warn(
      { err, template: name },
      'CloudFormation template not published: the connect answers no quick-create link for it',
    );
    return null;
  }
}

/** The CloudFormation way to create an account's role: the template, and the console link with the account's ExternalId. */
export async function cloudFormationOnboarding(deps: Deps, { sentinelAccountId, externalId }: RoleSetup) {
  const template = accountRoleTemplate({ sentinelAccountId });
  const link = await publishedLink(deps, ACCOUNT_ROLE_TEMPLATE, template, (templateUrl, region) =>
    quickCreateUrl({
      templateUrl,
      region,
      parameters: { [EXTERNAL_ID_PARAMETER]: externalId },
    }),
  );
  return { cloudformation_template: template, cloudformation_quick_create_url: link };
}

/**
 * The event forwarder as CloudFormation: its regional template, and the console link that creates its stack in
 * us-east-1 (where the global services' events arrive, so that stack has every rule) with the account's key and the
 * endpoint filled in. The other regions take the same template through a StackSet (docs/event-forwarding.md). The
 * link carries the key: it is shown once, like the key.
 */
export async function forwarderCloudFormation(deps: Deps, { endpoint, apiKey }: ForwarderSetup) {
  const link = await publishedLink(deps, EVENT_FORWARDER_TEMPLATE, FORWARDER_TEMPLATE, (templateUrl) =>
    quickCreateUrl({
      templateUrl,
      stackName: EVENT_FORWARDER_STACK,
      region: GLOBAL_EVENTS_REGION,
      parameters: { [FORWARDER_PARAMETERS.apiKey]: apiKey, [FORWARDER_PARAMETERS.endpoint]: endpoint },
    }),
  );
  return { cloudformation_template: FORWARDER_TEMPLATE, cloudformation_quick_create_url: link };
}
