import { accountRoleTemplate, quickCreateUrl } from '../../domain/cloudformation';
import type { RoleSetup } from '../../domain/onboarding';
import type { AppDeps } from '../context';

/** The account role template's name in the template bucket (its key adds the version). */
export const ACCOUNT_ROLE_TEMPLATE = 'sentinel-account-role';

/**
 * The CloudFormation way to create an account's role: the template, and the console link that creates it in one
 * click with the account's ExternalId filled in. The link needs the template published (deps.templates); without
 * a template bucket it is null, and if publishing fails the connect still succeeds with a null link (the template
 * and the other two ways are in the answer), so S3 never stands between a customer and connecting.
 */
export async function cloudFormationOnboarding({ templates, log }: Pick<AppDeps, 'templates' | 'log'>, { sentinelAccountId, externalId }: RoleSetup) {
  const template = accountRoleTemplate({ sentinelAccountId });
  let link: string | null = null;
  if (templates) {
    try {
      const templateUrl = await templates.publish({ name: ACCOUNT_ROLE_TEMPLATE, body: template });
      link = quickCreateUrl({ templateUrl, externalId, region: templates.region });
    } catch (err) {
      log.warn({ err }, 'CloudFormation template not published: the connect answers no quick-create link');
    }
  }
  return { cloudformation_template: template, cloudformation_quick_create_url: link };
}
