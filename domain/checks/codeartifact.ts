import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// CodeArtifact packages open to dependency confusion, as Prowler's codeartifact_packages_external_public_publishing_
// disabled judges them: a package published into the domain (its latest version's origin INTERNAL, or UNKNOWN) whose
// origin controls still let versions in from upstream repositories, where a public package of the same name lives.

export const CODEARTIFACT_CHECKS: readonly Check[] = [
  {
    id: 'exposure.codeartifact_package_upstream_allowed',
    service: 'codeartifact',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Internal CodeArtifact package accepts versions from public upstreams',
    description:
      'The package was published into the CodeArtifact domain, yet its origin controls allow upstream versions: ' +
      'anyone who publishes a package of the same name with a higher version to the public registry behind the ' +
      "repository's external connection (npmjs, PyPI, Maven Central) gets their code installed by the builds that " +
      'depend on it (dependency confusion), with the credentials those builds hold.',
    remediation:
      'In the CodeArtifact console open the repository > Packages > the package > Origin controls > Edit, set ' +
      'Upstream to Block (keep Publish at Allow) and save; or run aws codeartifact put-package-origin-configuration ' +
      '--domain DOMAIN --repository REPOSITORY --format FORMAT [--namespace NAMESPACE] --package PACKAGE ' +
      '--restrictions publish=ALLOW,upstream=BLOCK. Check that no public version of the package was already ' +
      'ingested into the repository.',
    docsUrl: 'https://docs.aws.amazon.com/codeartifact/latest/ug/package-origin-controls.html',
    prowler: ['codeartifact_packages_external_public_publishing_disabled'],
    evaluate: onPart('codeartifactPackages', ({ packages }) =>
      bySetting(packages, {
        resource: (p) => p.arn,
        fails: (p) => p.latestOrigin !== 'EXTERNAL',
        detail: (p) =>
          `The ${p.format} package ${p.namespace ? `${p.namespace}:` : ''}${p.name} of repository ${p.repository} ` +
          `(domain ${p.domain}, ${p.region}) was published ${p.latestOrigin === 'INTERNAL' ? 'into the domain' : 'from an unknown origin'} ` +
          'and still allows upstream versions.',
      }),
    ),
  },
];
