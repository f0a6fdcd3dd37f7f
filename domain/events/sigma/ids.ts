// How a tenant's Sigma rule is named among the detections: in an event's `detections` and its signals' check id,
// `sigma.` and the rule's id (`sigma.det_01J...`), beside the built-ins' `event.*`. Apart from the engine, so that
// what only reads ids (the catalogue, the dashboard) does not ship it.

export const SIGMA_DETECTION_PREFIX = 'sigma.';

export const sigmaDetectionId = (ruleId: string): string => `${SIGMA_DETECTION_PREFIX}${ruleId}`;

export const isSigmaDetection = (detectionId: string): boolean => detectionId.startsWith(SIGMA_DETECTION_PREFIX);
