import { CIS_AWS_7_0_CONTROLS } from './cis-aws-7.0';
import type { Framework, FrameworkId } from './types';

/** The frameworks Sentinel reports on (GET /compliance/frameworks). */
export const FRAMEWORKS: readonly Framework[] = [
  {
    id: 'cis-aws-7.0',
    name: 'CIS Amazon Web Services Foundations Benchmark',
    version: '7.0.0',
    url: 'https://www.cisecurity.org/benchmark/amazon_web_services',
    controls: CIS_AWS_7_0_CONTROLS,
  },
];

export function frameworkById(id: FrameworkId): Framework {
  const framework = FRAMEWORKS.find((f) => f.id === id);
  if (!framework) throw new Error(`No framework ${id}`);
  return framework;
}
