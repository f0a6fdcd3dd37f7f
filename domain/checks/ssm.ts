import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// Systems Manager documents the account owns: secrets written into their content, and documents shared with every
// AWS account.

const SSM_DOCS = 'https://docs.aws.amazon.com/systems-manager/latest/userguide/';

export const SSM_CHECKS: readonly Check[] = [
  {
    id: 'exposure.ssm_document_secrets',
    service: 'ssm',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in an SSM document',
    description:
      "An SSM document's content (a Run Command script, an Automation runbook's parameters or steps) holds what looks " +
      'like a credential. Documents are readable by anyone who may get them (ssm:GetDocument, which read-only roles ' +
      'have), by every account they are shared with, and their versions keep the old content: the credential should ' +
      'be treated as exposed.',
    remediation:
      'Rotate the credential. Store it in SSM Parameter Store as a SecureString (or in AWS Secrets Manager) and refer ' +
      'to it in the document ({{ssm-secure:NAME}} in a step, or read it in the script), then update the document and ' +
      'make the new version the default. Console: Systems Manager > Documents > Owned by me > the document > Actions > ' +
      'Create new version, then Versions > Set default version. CLI: aws ssm update-document --name NAME --content ' +
      "file://document.json --document-version '$LATEST' and aws ssm update-document-default-version --name NAME " +
      '--document-version N; delete the old versions (aws ssm delete-document --name NAME --document-version N).',
    docsUrl: `${SSM_DOCS}sysman-ssm-docs.html`,
    prowler: ['ssm_document_secrets'],
    evaluate: onPart('ssmDocuments', ({ documents }) =>
      failing(
        documents
          .filter((d) => d.contentSecrets.length > 0)
          .map((d) => ({
            resource: d.name,
            region: d.region,
            detail: describeSecrets(`SSM document ${d.name} in ${d.region}`, d.contentSecrets),
          })),
      ),
    ),
  },
  {
    id: 'exposure.ssm_document_public',
    service: 'ssm',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SSM document shared with everyone',
    description:
      'The document is shared publicly: every AWS account can read it and run it against its own instances, and what ' +
      'it says (scripts, hostnames, parameters, any secret left in it) is public.',
    remediation:
      'Stop sharing the document publicly and share it with named accounts only, if at all. Console: Systems Manager > ' +
      'Documents > Owned by me > the document > Details > Permissions > Edit, choose Private. CLI: aws ssm ' +
      'modify-document-permission --name NAME --permission-type Share --account-ids-to-remove All. Turn on the ' +
      'account-wide block (Systems Manager > Documents > Preferences > Block public sharing, or aws ssm ' +
      'update-service-setting --setting-id /ssm/documents/console/public-sharing-permission --setting-value Disable).',
    docsUrl: `${SSM_DOCS}documents-ssm-sharing.html`,
    controls: { 'aws-fsbp': ['SSM.4'] },
    prowler: ['ssm_documents_set_as_public'],
    evaluate: onPart('ssmDocuments', ({ documents }) =>
      failing(
        documents
          .filter((d) => d.public)
          .map((d) => ({
            resource: d.name,
            region: d.region,
            detail: `SSM document ${d.name} in ${d.region} is shared with every AWS account.`,
          })),
      ),
    ),
  },
];
