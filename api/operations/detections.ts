import { messageBody } from '../../core/schemas/common';
import {
  createDetectionInput,
  listDetectionsOutput,
  patchDetectionInput,
  tenantDetection,
} from '../../core/schemas/detections';
import {
  createDetection,
  deleteDetection,
  listDetections,
  patchDetection,
} from '../../core/detections/tenant-detections';
import { SIGMA_DETECTIONS_PER_TENANT } from '../../domain/tenancy/limits';
import { endpoint } from './operation';

export const detectionOperations = [
  endpoint({
    operationId: 'listDetections',
    method: 'get',
    path: '/detections',
    tag: 'Detections',
    access: 'viewer',
    summary: "The tenant's own detections (Sigma rules), oldest first",
    success: { status: 200, description: 'Every detection', schema: listDetectionsOutput },
    errors: [],
    handler: ({ deps, caller }) => listDetections(deps, caller),
  }),
  endpoint({
    operationId: 'createDetection',
    method: 'post',
    path: '/detections',
    tag: 'Detections',
    access: 'admin',
    summary: 'Upload a Sigma rule',
    description:
      "A Sigma rule for logsource product `aws`, service `cloudtrail`, run on every event the tenant's accounts " +
      'forward. Its matches open signals like the built-in detections, named `sigma.<detection_id>`, with the ' +
      "rule's title and a severity from its level. Supported: maps, lists, wildcards, `null`, the modifiers " +
      '`contains`, `startswith`, `endswith`, `all`, `cased`, `re` (with `i`, `m`, `s`), `cidr`, `exists`, `lt`, ' +
      '`lte`, `gt`, `gte`, and conditions with `and`, `or`, `not`, brackets, `1 of` and `all of`. Anything else ' +
      '(keyword searches, aggregations, `timeframe`, other modifiers) is a 400 naming it, in `details` under ' +
      `\`sigma\`. A tenant has at most ${SIGMA_DETECTIONS_PER_TENANT} detections (then 403 \`plan_limit_exceeded\`); ` +
      'a name is used once (409 `conflict`).',
    body: createDetectionInput,
    success: { status: 201, description: 'The detection', schema: tenantDetection },
    errors: ['plan_limit_exceeded', 'conflict'],
    handler: ({ deps, caller, body }) => createDetection(deps, caller, body),
  }),
  endpoint({
    operationId: 'patchDetection',
    method: 'patch',
    path: '/detections/{detection_id}',
    tag: 'Detections',
    access: 'admin',
    summary: 'Enable or disable a detection',
    body: patchDetectionInput,
    success: { status: 200, description: 'The detection', schema: tenantDetection },
    errors: ['not_found'],
    handler: ({ deps, caller, params, body }) => patchDetection(deps, caller, params.detection_id, body),
  }),
  endpoint({
    operationId: 'deleteDetection',
    method: 'delete',
    path: '/detections/{detection_id}',
    tag: 'Detections',
    access: 'admin',
    summary: 'Delete a detection',
    description: 'The signals it opened stay.',
    success: { status: 200, description: 'Deleted', schema: messageBody },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => deleteDetection(deps, caller, params.detection_id),
  }),
];
