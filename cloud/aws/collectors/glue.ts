import {
  GetDataCatalogEncryptionSettingsCommand,
  GetResourcePolicyCommand,
  GlueClient,
  paginateGetConnections,
  paginateGetJobs,
  paginateGetSecurityConfigurations,
} from '@aws-sdk/client-glue';
import type {
  Glue,
  GlueCatalog,
  GlueConnection,
  GlueJob,
  GlueSecurityConfiguration,
} from '../../../domain/scans/compute';
import { describeStatement, policyExposure } from '../../../domain/policies/resource-policy';
import { findInSettings } from '../../../domain/secrets/detector';
import { ReadFailure, unlessAbsent } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Glue, region by region: ETL jobs (their default arguments searched for secrets as they are read), Data Catalog
// connections (their properties likewise, passwords included: a password kept in a connection rather than in
// Secrets Manager is what the check finds; only its name and kind are kept), security configurations, and the
// region's Data Catalog: its encryption settings and its resource policy. A refused resource policy leaves only the
// catalog's exposure unread; the rest of the region is still judged.

const glueIn = (ctx: ReadContext, region: string) => ctx.session.client((config) => new GlueClient(config), region);

async function catalogOf(ctx: ReadContext, client: GlueClient, region: string): Promise<GlueCatalog> {
  const { DataCatalogEncryptionSettings: settings } = await client.send(
    new GetDataCatalogEncryptionSettingsCommand({}),
  );
  let policy: GlueCatalog['policy'];
  try {
    // No policy is EntityNotFoundException: nothing is shared.
    const answer = await unlessAbsent(() => client.send(new GetResourcePolicyCommand({})), 'EntityNotFoundException');
    const exposure = answer?.PolicyInJson ? policyExposure(answer.PolicyInJson, ctx.session.accountId) : undefined;
    policy =
      answer?.PolicyInJson && !exposure
        ? { read: false, reason: 'Glue GetResourcePolicy answered a text that is not a policy document.' }
        : { read: true, publicStatements: (exposure?.public ?? []).map(describeStatement) };
  } catch (err) {
    if (!(err instanceof ReadFailure) || err.kind !== 'denied') throw err;
    policy = { read: false, reason: err.reason };
  }
  return {
    region,
    passwordsEncrypted: settings?.ConnectionPasswordEncryption?.ReturnConnectionPasswordEncrypted === true,
    policy,
  };
}

export const gluePart = regionalPart({
  part: 'glue',
  async read(ctx: ReadContext, region: string): Promise<Glue> {
    const client = glueIn(ctx, region);
    const jobs = await foldPages(paginateGetJobs({ client }, {}), [] as GlueJob[], (into, page) => {
      for (const job of page.Jobs ?? []) {
        if (!job.Name) continue;
        const args = job.DefaultArguments ?? {};
        into.push({
          name: job.Name,
          region,
          argumentSecrets: findInSettings(Object.entries(args)),
          securityConfiguration: job.SecurityConfiguration ?? null,
          sseS3Argument: args['--encryption-type'] === 'sse-s3',
        });
      }
      return into;
    });
    const connections = await foldPages(
      // HidePassword: the connection's own PASSWORD never leaves AWS (it is where Glue keeps one, encrypted with the
      // catalog's settings, which glue_connection_passwords_unencrypted judges). A secret elsewhere in its properties (a
      // password in the JDBC URL, a token in a custom key) is what the secret check finds.
      paginateGetConnections({ client }, { HidePassword: true }),
      [] as GlueConnection[],
      (into, page) => {
        for (const c of page.ConnectionList ?? []) {
          if (!c.Name) continue;
          const properties = c.ConnectionProperties ?? {};
          into.push({
            name: c.Name,
            region,
            type: c.ConnectionType ?? 'JDBC',
            enforceSsl: properties.JDBC_ENFORCE_SSL === 'true',
            propertySecrets: findInSettings(Object.entries(properties)),
          });
        }
        return into;
      },
    );
    const securityConfigurations = await foldPages(
      paginateGetSecurityConfigurations({ client }, {}),
      [] as GlueSecurityConfiguration[],
      (into, page) => {
        for (const sc of page.SecurityConfigurations ?? []) {
          if (!sc.Name) continue;
          const encryption = sc.EncryptionConfiguration;
          into.push({
            name: sc.Name,
            region,
            s3Encryption: encryption?.S3Encryption?.find((e) => e.S3EncryptionMode)?.S3EncryptionMode ?? 'DISABLED',
            cloudWatchEncryption: encryption?.CloudWatchEncryption?.CloudWatchEncryptionMode ?? 'DISABLED',
            bookmarksEncryption: encryption?.JobBookmarksEncryption?.JobBookmarksEncryptionMode ?? 'DISABLED',
          });
        }
        return into;
      },
    );
    return { jobs, connections, securityConfigurations, catalogs: [await catalogOf(ctx, client, region)] };
  },
  assemble: (slices) => ({
    jobs: slices.flatMap((s) => s.jobs),
    connections: slices.flatMap((s) => s.connections),
    securityConfigurations: slices.flatMap((s) => s.securityConfigurations),
    catalogs: slices.flatMap((s) => s.catalogs),
  }),
});
